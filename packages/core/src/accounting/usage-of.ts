import type { CompletionUsage } from '../schemas/completion-usage.js';

/** The usage of an answer (`usage`, or `body.usage` for wrapped results), when it has one. */
export function usageOf(data: unknown): Partial<CompletionUsage> | undefined {
  const value = data as { usage?: Partial<CompletionUsage>; body?: { usage?: Partial<CompletionUsage> } } | null;
  const usage = value?.usage ?? value?.body?.usage;
  return usage && typeof usage === 'object' ? usage : undefined;
}
