import type { ChatCompletionRequest } from '@switchyard/core';

/** `max_tokens` sent when neither the request nor the config gives one: 4,096 tokens (every Claude model allows it). */
export const DEFAULT_MAX_TOKENS = 4096;

/** Where `max_tokens` comes from when a request has none (tokens). */
export interface MaxTokensDefaults {
  /** For every model without an entry in `maxTokensByModel`. Default {@link DEFAULT_MAX_TOKENS}. */
  defaultMaxTokens?: number;
  /**
   * Per upstream model id, e.g. `{ "claude-sonnet-4-5": 16384 }`. An exact id wins; else the longest key that the id
   * starts with (so `claude-sonnet-4-5` also covers `claude-sonnet-4-5-20250929`).
   */
  maxTokensByModel?: Record<string, number>;
}

/**
 * The `max_tokens` Anthropic requires, in tokens: the request's `max_completion_tokens`, else its `max_tokens`, else
 * the configured default of the model (exact id, then longest prefix), else `defaultMaxTokens`, else
 * {@link DEFAULT_MAX_TOKENS}. Never throws.
 * @see https://docs.anthropic.com/en/api/messages#body-max-tokens
 */
export function resolveMaxTokens(request: ChatCompletionRequest, defaults: MaxTokensDefaults = {}): number {
  const asked = request.max_completion_tokens ?? request.max_tokens;
  if (asked != null) return asked;
  const byModel = defaults.maxTokensByModel ?? {};
  const exact = byModel[request.model];
  if (exact !== undefined) return exact;
  let best: string | undefined;
  for (const key of Object.keys(byModel)) {
    if (request.model.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best !== undefined ? byModel[best]! : (defaults.defaultMaxTokens ?? DEFAULT_MAX_TOKENS);
}
