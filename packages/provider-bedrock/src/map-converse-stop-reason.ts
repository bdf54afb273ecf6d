/** OpenAI `finish_reason` values a Converse answer can end with. */
export type ConverseFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * Converse `stopReason` -> OpenAI `finish_reason`: `end_turn` and `stop_sequence` -> `stop`; `max_tokens` and
 * `model_context_window_exceeded` -> `length`; `tool_use` -> `tool_calls`; `guardrail_intervened` and
 * `content_filtered` -> `content_filter`; anything else (or none) -> `stop`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
 */
export function mapConverseStopReason(reason: string | undefined): ConverseFinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'guardrail_intervened':
    case 'content_filtered':
      return 'content_filter';
    default:
      return 'stop';
  }
}
