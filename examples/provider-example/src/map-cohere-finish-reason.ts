import type { CohereFinishReason } from './cohere-types.js';

/**
 * Cohere `finish_reason` -> OpenAI `finish_reason`: COMPLETE and STOP_SEQUENCE -> `stop`, MAX_TOKENS -> `length`,
 * TOOL_CALL -> `tool_calls`; ERROR, TIMEOUT and anything unknown -> `stop` (the text so far is all there is).
 * @see https://docs.cohere.com/reference/chat#response.body.finish_reason
 */
export function mapCohereFinishReason(reason: CohereFinishReason | undefined): 'stop' | 'length' | 'tool_calls' {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'TOOL_CALL':
      return 'tool_calls';
    default:
      return 'stop';
  }
}
