import type { CompletionUsage } from '../schemas/completion-usage.js';

/**
 * Makes `total_tokens` equal `prompt_tokens + completion_tokens` (tokens), in place, as the gateway promises for
 * every answer with usage (some upstreams count reasoning tokens in the total only). Returns the same object.
 */
export function normalizeUsage<T extends Pick<CompletionUsage, 'prompt_tokens' | 'completion_tokens' | 'total_tokens'>>(usage: T): T {
  usage.prompt_tokens ??= 0;
  usage.completion_tokens ??= 0;
  usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  return usage;
}
