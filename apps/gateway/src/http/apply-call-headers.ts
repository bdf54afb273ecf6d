import { type AcceptedCall, type GatewayCallResult, type GatewayWarning, checkModelId } from '@switchyard/core';
import type { Response } from 'express';
import { answerCostUsd } from './answer-cost.js';
import { locals } from './request-locals.js';

/**
 * Records which provider served a call (for the log) and tells the client in headers: `x-switchyard-provider`,
 * `x-switchyard-model` (the model id that served it: the requested one or a fallback), `x-switchyard-upstream-model`,
 * `x-switchyard-attempts` (upstream attempts, retries and fallbacks included), with accounts the `x-ratelimit-*`
 * headers, `x-switchyard-cost-usd` (USD, non-streamed answers with usage at a known price, with or without accounts), `x-switchyard-cache` (`hit` or `miss`, when the
 * response cache was used), and `x-switchyard-warning` (one `code: message` per warning, comma-separated) when an adapter changed the request.
 * A stream whose headers went out when its upstream accepted it ({@link applyAcceptedHeaders}) keeps those. A stream
 * that then fails (whatever the front door sends for it: an error event of its own shape, or an upstream's error event
 * passed through) is noted as the request's error for the log once it has been settled, before its response ends.
 */
export function applyCallHeaders(res: Response, result: GatewayCallResult<unknown>): void {
  const requestLocals = locals(res);
  requestLocals.provider = result.provider;
  requestLocals.result = result;
  requestLocals.resultAt = performance.now();
  result.finished?.then((summary) => {
    if (summary.error !== undefined && !res.destroyed) requestLocals.error ??= summary.error;
  });
  if (!res.headersSent) setCallHeaders(res, { ...result, costUsd: answerCostUsd(result) });
}

/**
 * The headers of {@link applyCallHeaders} for a streamed call its upstream has just accepted (before its first chunk):
 * they name the attempt that accepted it and count the attempts up to it.
 */
export function applyAcceptedHeaders(res: Response, accepted: AcceptedCall): void {
  locals(res).provider = accepted.provider;
  if (!res.headersSent) setCallHeaders(res, accepted);
}

function setCallHeaders(
  res: Response,
  result: AcceptedCall & Partial<Pick<GatewayCallResult<unknown>, 'costUsd' | 'cache'>>,
): void {
  res.set(result.headers);
  if (result.costUsd !== undefined) res.setHeader('x-switchyard-cost-usd', result.costUsd.toFixed(8));
  res.setHeader('x-switchyard-provider', result.provider);
  res.setHeader('x-switchyard-model', result.servedModel);
  res.setHeader('x-switchyard-upstream-model', result.upstreamModel);
  res.setHeader('x-switchyard-attempts', String(result.attempts));
  if (result.cache) res.setHeader('x-switchyard-cache', result.cache);
  if (result.warnings.length > 0) res.setHeader('x-switchyard-warning', formatWarnings(result.warnings));
}

/**
 * Adds warnings of the front door itself (what a translation dropped) to the `x-switchyard-warning` header, after any
 * the adapters reported; a no-op once the headers went out or when there are none.
 */
export function addWarningHeader(res: Response, warnings: readonly GatewayWarning[]): void {
  if (res.headersSent || warnings.length === 0) return;
  const current = res.getHeader('x-switchyard-warning');
  const added = formatWarnings(warnings);
  res.setHeader('x-switchyard-warning', typeof current === 'string' && current !== '' ? `${current}, ${added}` : added);
}

/** The `x-switchyard-warning` header value: `code: message` per warning, comma-separated, on one line. */
export function formatWarnings(warnings: readonly GatewayWarning[]): string {
  return warnings.map((w) => `${w.code}: ${w.message}`.replace(/[\r\n,]+/g, ' ')).join(', ');
}

/**
 * Checks the requested model id and notes it (and its provider, when it resolves) for the request log before the call
 * runs, so nothing is keyed on an unchecked id. A string that is not a valid model id (over 256 characters, spaces,
 * control or non-ASCII characters) throws 400 naming `model` (see `checkModelId`); a missing or non-string model is left
 * to the operation's own validation.
 */
export function noteModel(res: Response, model: unknown, resolveProvider: (model: string) => string | undefined): void {
  if (typeof model !== 'string') return;
  checkModelId(model);
  locals(res).model = model;
  locals(res).provider = resolveProvider(model);
}
