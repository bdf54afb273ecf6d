/**
 * Gemini `finishReason` -> OpenAI `finish_reason`: STOP -> `stop` (or `tool_calls` when the candidate called a
 * function), MAX_TOKENS -> `length`, SAFETY, RECITATION, BLOCKLIST, PROHIBITED_CONTENT, SPII, IMAGE_SAFETY ->
 * `content_filter`, MALFORMED_FUNCTION_CALL and anything else -> `stop`.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapGeminiFinishReason(
  reason: string | undefined,
  calledFunction: boolean,
): 'stop' | 'length' | 'tool_calls' | 'content_filter' {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content_filter';
    default:
      return calledFunction ? 'tool_calls' : 'stop';
  }
}
