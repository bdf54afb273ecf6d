import { type CompletionUsage, GatewayError } from '@switchyard/core';
import type { CohereUsage } from './cohere-api.js';

/**
 * Cohere `finish_reason` -> OpenAI: COMPLETE and STOP_SEQUENCE -> `stop`, MAX_TOKENS -> `length`, TOOL_CALL ->
 * `tool_calls`. ERROR and TIMEOUT have no OpenAI equivalent: they throw 502 `upstream_error` (mid-stream too).
 * @see https://docs.cohere.com/reference/chat#response.body.finish_reason
 */
export function mapCohereFinishReason(provider: string, reason: string | undefined): 'stop' | 'length' | 'tool_calls' {
  switch (reason) {
    case 'MAX_TOKENS':
      return 'length';
    case 'TOOL_CALL':
      return 'tool_calls';
    case 'ERROR':
    case 'TIMEOUT':
      throw new GatewayError({
        status: 502,
        type: 'server_error',
        code: 'upstream_error',
        message: `The upstream provider '${provider}' ended the answer with ${reason}.`,
      });
    default:
      return 'stop';
  }
}

/**
 * Cohere usage -> OpenAI usage (tokens): the billed units (what Cohere charges, and what prices apply to), else the
 * raw token counts. `cached_tokens` counts raw tokens, so it is not reported against billed units.
 */
export function mapCohereUsage(usage: CohereUsage | undefined): CompletionUsage | undefined {
  const counts = usage?.billed_units ?? usage?.tokens;
  if (!counts) return undefined;
  const prompt = counts.input_tokens ?? 0;
  const completion = counts.output_tokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
