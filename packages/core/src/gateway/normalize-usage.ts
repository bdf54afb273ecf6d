import type { CompletionUsage } from '../schemas/completion-usage.js';
import { forgetJsonText } from '../utils/raw-json-text.js';

/**
 * Makes `total_tokens` equal `prompt_tokens + completion_tokens` (tokens), in place, as the gateway promises for
 * every answer with usage (some upstreams count reasoning tokens in the total only). Returns the same object.
 */
export function normalizeUsage<T extends Pick<CompletionUsage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens'>>(
  usage: T,
): T {
  usage.prompt_tokens ??= 0;
  usage.completion_tokens ??= 0;
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  return usage;
}

/**
 * Normalises `owner.usage` in place like {@link normalizeUsage} (when there is one) and, when that changed a count,
 * forgets the upstream JSON text remembered for `owner` (see `rememberJsonText`), so the client gets the corrected
 * numbers. Returns the usage.
 */
export function normalizeUsageOf<
  T extends Pick<CompletionUsage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens'>,
>(owner: { usage?: T | null }): T | undefined {
  const usage = owner.usage;
  if (!usage) return undefined;
  const { prompt_tokens, completion_tokens, total_tokens } = usage;
  normalizeUsage(usage);
  if (
    usage.prompt_tokens !== prompt_tokens ||
    usage.completion_tokens !== completion_tokens ||
    usage.total_tokens !== total_tokens
  )
    forgetJsonText(owner);
  return usage;
}
