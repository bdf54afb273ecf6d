import { computeCostUsd, rateLimitKind, resolvePrice } from '@switchyard/accounts';
import type { CompletionUsage } from '@switchyard/core';
import type { RequestHandler } from 'express';
import type { GatewayMetrics } from '../../telemetry/gateway-metrics.js';
import { operationOf } from '../operation-of.js';
import { locals, onResponseClose } from '../request-locals.js';

/**
 * Feeds {@link GatewayMetrics} from API requests (mount it on `/v1`): the inflight gauge when a request arrives, and
 * when its response has ended (off the request path): the request counter and duration, the time to the first
 * upstream chunk for streams, tokens and cost from the answer's usage (for streams once the stream has ended), and
 * the kind of limit that refused it (429 from a key's limits), and whether the response cache answered it (hit) or
 * stored its answer (miss); answers from the cache add no tokens or cost.
 */
export function measureRequests(metrics: GatewayMetrics): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    const operation = operationOf(req.path);
    metrics.requestStarted(operation);
    onResponseClose(res, () => {
      const { model, provider, result, resultAt, failure } = locals(res);
      const served = result?.provider ?? provider;
      const modelLabel = served === undefined ? undefined : model;
      metrics.requestEnded({
        operation,
        model: modelLabel,
        provider: served,
        status: res.statusCode,
        durationSeconds: (performance.now() - started) / 1000,
        timeToFirstTokenSeconds: result?.finished && resultAt !== undefined ? (resultAt - started) / 1000 : undefined,
      });
      const kind = rateLimitKind(failure);
      if (kind) metrics.rateLimited(kind);
      if (result?.cache) metrics.cacheLookup(operation, result.cache);
      // Answers from the response cache used no tokens and cost nothing.
      if (!result || result.cache === 'hit' || modelLabel === undefined || served === undefined) return;
      const count = (usage: Partial<CompletionUsage> | undefined) => {
        if (!usage) return;
        // The price the ledger uses: config, else the catalogue's at the call's tier; cache and reasoning tokens at theirs.
        const { price } = resolvePrice(
          result.target.price,
          result.target.adapter.adapter,
          result.target.upstreamModel,
          usage.prompt_tokens ?? 0,
        );
        metrics.usage(
          modelLabel,
          served,
          usage,
          computeCostUsd(price, usage.prompt_tokens ?? 0, usage.completion_tokens ?? 0, usage),
        );
      };
      if (result.finished)
        result.finished.then(
          (summary) => count(summary.usage),
          () => {},
        );
      else count((result.data as { usage?: Partial<CompletionUsage> } | null)?.usage);
    });
    next();
  };
}
