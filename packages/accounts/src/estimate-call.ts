import type { CallOperation, RoutePlan } from '@switchyard/core';
import { targetPrice } from './catalog-price.js';
import { estimatePromptTokens } from './estimate-tokens.js';

/**
 * Completion tokens reserved for a chat call that sets neither `max_completion_tokens` nor `max_tokens`: 1,024 per
 * choice. Calls that use more are settled at their actual usage (the documented over-admission tolerance).
 */
export const DEFAULT_COMPLETION_TOKENS = 1024;

/**
 * The request fields that cap completion tokens, per operation that generates text: chat completions, legacy
 * completions (`max_tokens`), and the native
 * pass-throughs of the Messages (`max_tokens`) and Responses (`max_output_tokens`) front doors.
 */
const COMPLETION_LIMITS: Partial<Record<CallOperation, readonly string[]>> = {
  chatCompletions: ['max_completion_tokens', 'max_tokens'],
  completions: ['max_tokens'],
  anthropicMessages: ['max_tokens'],
  openaiResponses: ['max_output_tokens'],
};

/** A choice count (`n`, `best_of`): a number of at least 1, rounded down; 1 for anything else. */
function count(value: unknown): number {
  return typeof value === 'number' && value >= 1 ? Math.floor(value) : 1;
}

/** The first of `names` whose field in `request` is a number of at least 0 (a completion limit), or undefined. */
function completionLimitField(request: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = request[name];
    if (typeof value === 'number' && value >= 0) return name;
  }
  return undefined;
}

/**
 * Choices a call generates: chat's `n`; for legacy completions `max(n, best_of)` per prompt (an array of prompts
 * generates that many for each); 1 for the others.
 */
function choicesOf(operation: CallOperation, request: Record<string, unknown>): number {
  if (operation === 'chatCompletions') return count(request.n);
  if (operation !== 'completions') return 1;
  const prompt = request.prompt;
  const prompts = Array.isArray(prompt) && prompt.length > 0 && typeof prompt[0] !== 'number' ? prompt.length : 1;
  return Math.max(count(request.n), count(request.best_of)) * prompts;
}

/** The pre-call estimate of a call: prompt tokens (about 4 characters each), completion tokens, and the reservation. */
export interface CallEstimateDetail {
  promptTokens: number;
  completionTokens: number;
  /**
   * Where `completionTokens` came from: the request field that capped them (`max_tokens`, `max_completion_tokens`,
   * `max_output_tokens`), `default` ({@link DEFAULT_COMPLETION_TOKENS} per choice: no such field was set), or `none`
   * (an operation that generates no text).
   */
  completionBasis: string;
  /** Tokens reserved against tpm: prompt + completion. */
  tokens: number;
  /** USD reserved against the budget: the dearest deployment of the plan at these token counts. */
  costUsd: number;
}

/**
 * Estimates a call before it runs: prompt tokens from the request's text (messages or `input`), completion tokens
 * from `max_completion_tokens`, else `max_tokens`, else {@link DEFAULT_COMPLETION_TOKENS}, times `n` (chat; the Messages
 * and Responses pass-throughs read `max_tokens` and `max_output_tokens`; other operations reserve no completion
 * tokens), priced at the dearest deployment in `plan` (USD per million tokens, configured else from the catalogue;
 * unpriced deployments count 0). `anthropicCountTokens` (`/v1/messages/count_tokens`) is estimated at 0 tokens and 0 USD.
 */
export function estimateCall(
  operation: CallOperation,
  request: Record<string, unknown>,
  plan: RoutePlan,
): CallEstimateDetail {
  // Counting tokens costs nothing and uses no model: nothing is reserved against tpm or the budget.
  if (operation === 'anthropicCountTokens')
    return { promptTokens: 0, completionTokens: 0, completionBasis: 'none', tokens: 0, costUsd: 0 };
  const promptTokens = estimatePromptTokens(request);
  let completionTokens = 0;
  let completionBasis = 'none';
  const limits = COMPLETION_LIMITS[operation];
  if (limits) {
    const field = completionLimitField(request, limits);
    const n = choicesOf(operation, request);
    completionTokens = (field ? (request[field] as number) : DEFAULT_COMPLETION_TOKENS) * n;
    completionBasis = field ?? 'default';
  }
  let costUsd = 0;
  for (const model of plan.models) {
    for (const target of model.targets) {
      // A configured price is taken as it is (see `resolvePrice`): no resolved price made for it.
      const price = target.price ?? targetPrice(target, promptTokens).price;
      if (!price) continue;
      const output = Math.max(price.output, price.reasoning ?? 0);
      costUsd = Math.max(costUsd, (promptTokens * price.input + completionTokens * output) / 1_000_000);
    }
  }
  return { promptTokens, completionTokens, completionBasis, tokens: promptTokens + completionTokens, costUsd };
}
