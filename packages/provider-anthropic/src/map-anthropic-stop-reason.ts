/** The OpenAI finish reasons an Anthropic answer can end with. */
export type MappedFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

/**
 * Anthropic `stop_reason` -> OpenAI `finish_reason`:
 * - `end_turn`, `stop_sequence`, `pause_turn` (a server tool paused a long turn) -> `stop`;
 * - `max_tokens`, `model_context_window_exceeded` -> `length`;
 * - `tool_use` -> `tool_calls`;
 * - `refusal` (streaming classifiers stopped the answer) -> `content_filter`;
 * - null, missing or a reason added later -> `stop`.
 * @see https://docs.anthropic.com/en/api/handling-stop-reasons
 */
export function mapAnthropicStopReason(reason: string | null | undefined): MappedFinishReason {
  switch (reason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}
