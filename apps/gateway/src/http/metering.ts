import { type Accounts, type Admission, computeCostUsd, countTextTokens, estimatePromptTokens, type PriceSource, type Principal, resolvePrice } from '@switchyard/accounts';
import type { ChatCompletionChunk, CompletionUsage, GatewayCallResult, ModelPrice, StreamSummary } from '@switchyard/core';
import type { Response } from 'express';
import { locals } from './request-locals.js';

/** Per-request accounting state, kept in `res.locals.meter`. */
export interface Meter {
  admission: Admission;
  startedAt: number;
  stream: boolean;
  usage?: Partial<CompletionUsage>;
  price?: ModelPrice;
  /** Where `price` came from (`config`, `catalog`), or `none`. */
  priceSource?: PriceSource;
  upstreamModel?: string;
  ttfbMs?: number;
  /** Streamed text, for counting tokens when the upstream reported no usage. */
  streamText?: string;
  promptText?: string;
  finished?: Promise<StreamSummary | undefined>;
}

/** Ledger settlements still running (they wait for a stream's end or count tokens), per accounts. */
const pendingSettlements = new WeakMap<Accounts, Set<Promise<void>>>();

/** Resolves once every ledger settlement started so far has queued its row (for graceful shutdown). */
export async function settlementsDone(accounts: Accounts): Promise<void> {
  const pending = pendingSettlements.get(accounts);
  if (pending) await Promise.allSettled([...pending]);
}

function meterOf(res: Response): Meter | undefined {
  return (res.locals as { meter?: Meter }).meter;
}

function promptText(body: unknown): string {
  const messages = (body as { messages?: { content?: unknown }[] } | null)?.messages;
  if (!Array.isArray(messages)) return typeof (body as { input?: unknown } | null)?.input === 'string' ? String((body as { input: string }).input) : '';
  return messages.map((m) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? ''))).join('\n');
}

/**
 * Admits one call before it runs (model allow-list, requests and tokens per minute, budget; throws 403/429), sets the
 * `x-ratelimit-*` headers, and registers the ledger write for when the response has ended, whatever its outcome.
 */
export function admitCall(res: Response, accounts: Accounts | undefined, model: unknown, body: unknown): void {
  const principal = (res.locals as { principal?: Principal }).principal;
  if (!accounts || !principal || typeof model !== 'string') return;
  const admission = accounts.admit(principal, model, estimatePromptTokens(body));
  res.set(admission.headers);
  const meter: Meter = { admission, startedAt: performance.now(), stream: (body as { stream?: unknown } | null)?.stream === true };
  (res.locals as { meter?: Meter }).meter = meter;
  res.once('close', () => {
    let pending = pendingSettlements.get(accounts);
    if (!pending) pendingSettlements.set(accounts, (pending = new Set()));
    const task = (async () => {
      const summary = await meter.finished?.catch(() => undefined);
      if (summary?.usage) meter.usage = summary.usage;
      let prompt = meter.usage?.prompt_tokens;
      let completion = meter.usage?.completion_tokens;
      if (prompt === undefined && res.statusCode < 400 && meter.stream) {
        // The upstream reported no usage: count with a tokenizer, after the response has gone.
        prompt = await countTextTokens(promptText(body));
        completion = await countTextTokens(meter.streamText ?? '');
      }
      const { provider } = locals(res);
      accounts.settle(principal, admission, {
        request_id: locals(res).requestId,
        model,
        provider: provider ?? null,
        upstream_model: meter.upstreamModel ?? null,
        prompt_tokens: prompt ?? 0,
        completion_tokens: completion ?? 0,
        cost_usd: computeCostUsd(meter.price, prompt ?? 0, completion ?? 0, meter.usage ?? {}),
        price_source: meter.priceSource ?? 'none',
        latency_ms: performance.now() - meter.startedAt,
        ttfb_ms: meter.ttfbMs ?? null,
        status: res.statusCode,
        stream: meter.stream,
        created_at: Date.now(),
      });
    })().catch((error: unknown) => locals(res).reportError?.(error, 'usage metering failed'));
    pending.add(task);
    task.finally(() => pending.delete(task)).catch(() => {});
  });
}

/**
 * Notes what a call used once its answer is known: usage (tokens) and price (USD per million tokens) of the target —
 * the configured `price`, else the bundled catalogue's for the adapter kind and upstream model, else none (see
 * `resolvePrice`) — and for non-streamed answers the `x-switchyard-cost-usd` and `x-switchyard-price-source`
 * (`config`, `catalog`, `none`) headers. Streams report usage through `result.finished`.
 */
export function noteCallUsage(res: Response, result: GatewayCallResult<unknown>): void {
  const meter = meterOf(res);
  if (!meter) return;
  const resolved = resolvePrice(result.target.price, result.target.adapter.adapter, result.upstreamModel);
  meter.price = resolved.price;
  meter.priceSource = resolved.source;
  meter.upstreamModel = result.upstreamModel;
  meter.ttfbMs ??= performance.now() - meter.startedAt;
  if (result.finished) {
    meter.finished = result.finished;
    return;
  }
  const usage = (result.data as { usage?: Partial<CompletionUsage> } | null)?.usage;
  if (usage) meter.usage = usage;
  const cost = computeCostUsd(meter.price, usage?.prompt_tokens ?? 0, usage?.completion_tokens ?? 0, usage ?? {});
  res.setHeader('x-switchyard-cost-usd', cost.toFixed(8));
  res.setHeader('x-switchyard-price-source', meter.priceSource ?? 'none');
}

/**
 * Passes chunks through; when the request is metered, keeps their text for the tokenizer fallback (upstreams that
 * report no stream usage). Unmetered requests get the stream back unchanged.
 */
export function meterChunks(res: Response, chunks: AsyncIterable<ChatCompletionChunk>): AsyncIterable<ChatCompletionChunk> {
  const meter = meterOf(res);
  if (!meter) return chunks;
  return (async function* () {
    for await (const chunk of chunks) {
      for (const choice of chunk.choices) if (choice.delta?.content) meter.streamText = (meter.streamText ?? '') + choice.delta.content;
      yield chunk;
    }
  })();
}
