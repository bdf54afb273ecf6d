import type { GatewayError } from '@switchyard/core';
import { rateLimitError } from './rate-limit-error.js';

/** USD for a message: at most 6 significant digits, never in exponent notation (0.00011, 0.005001, 12.5). */
export function formatUsd(usd: number): string {
  const rounded = Number(Math.max(0, usd).toPrecision(6));
  return rounded !== 0 && rounded < 1e-6 ? rounded.toFixed(12).replace(/0+$/, '') : String(rounded);
}

/** The estimate of a refused call (see `RefusedEstimate`): USD, and the tokens it counts. */
export interface RefusedEstimate {
  costUsd: number;
  promptTokens?: number;
  completionTokens?: number;
  completionBasis?: string;
}

const count = (n: number, what: string) => `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;

/** What the completion tokens of an estimate were taken from, in words. */
function basisOf(estimate: RefusedEstimate): string {
  const completion = count(estimate.completionTokens ?? 0, 'completion token');
  if (estimate.completionBasis === 'default') return `${completion}, the default when the request sets no max_tokens`;
  if (estimate.completionBasis && estimate.completionBasis !== 'none')
    return `${completion} from ${estimate.completionBasis}`;
  return completion;
}

/**
 * 429 `insufficient_quota` for a call the budget refused, saying which refusal it is: "spent" only when the window's
 * settled spend has reached the budget; otherwise calls in flight hold reservations and this call's estimate does not
 * fit in what they leave, and the message gives the estimate (USD, with its tokens and where the completion tokens
 * came from: `max_tokens`, `max_completion_tokens`, `max_output_tokens` or the default of 1,024), the remaining USD,
 * the spend and the reservations. `window` is where the window stood (USD); without it the budget counts as spent.
 * `owner` holds the budget (a key, team, end user or session: `what` names it in the message, default `key`).
 * @see https://platform.openai.com/docs/guides/error-codes#api-errors
 */
export function budgetRefusal(
  owner: { budget_usd: number | null; budget_period: string },
  window: { spentUsd: number; reservedUsd: number } | undefined,
  estimate: RefusedEstimate,
  headers: Record<string, string>,
  what = 'key',
): GatewayError {
  const budget =
    owner.budget_period === 'session'
      ? `budget of ${owner.budget_usd} USD per session`
      : `budget of ${owner.budget_usd} USD per ${owner.budget_period}`;
  const limit = owner.budget_usd ?? 0;
  const whose = `This ${what}'s`;
  if (!window || window.spentUsd >= limit - 1e-9) {
    const spent = window ? ` (${formatUsd(window.spentUsd)} USD spent)` : '';
    return rateLimitError(`${whose} ${budget} is spent${spent}.`, 'insufficient_quota', headers, 'budget');
  }
  const remaining = limit - window.spentUsd - window.reservedUsd;
  const tokens =
    estimate.promptTokens !== undefined
      ? ` (${count(estimate.promptTokens, 'prompt token')} and ${basisOf(estimate)})`
      : '';
  return rateLimitError(
    `This call's estimate of ${formatUsd(estimate.costUsd)} USD${tokens} exceeds the remaining ${formatUsd(remaining)} USD of this ${what}'s ${budget} ` +
      `(${formatUsd(window.spentUsd)} USD spent, ${formatUsd(window.reservedUsd)} USD reserved by calls in flight). ` +
      'Retry when calls in flight have ended, or lower max_tokens.',
    'insufficient_quota',
    { ...headers, 'retry-after': '1' },
    'budget',
  );
}
