import type { Gateway, TargetHealthSnapshot } from '@switchyard/core';
import type { Router } from 'express';

/** One deployment's live health as `GET /admin/health` shows it. */
function healthView(snapshot: TargetHealthSnapshot, models: readonly string[]) {
  const slash = snapshot.key.indexOf('/');
  return {
    deployment: snapshot.key,
    provider: snapshot.key.slice(0, slash),
    upstream_model: snapshot.key.slice(slash + 1),
    models,
    in_flight: snapshot.inFlight,
    latency_ms_avg: snapshot.latencyMs ?? null,
    consecutive_failures: snapshot.consecutiveFailures,
    cooling_down: snapshot.cooldownUntil !== undefined,
    cooling_down_until: snapshot.cooldownUntil === undefined ? null : new Date(snapshot.cooldownUntil).toISOString(),
  };
}

/**
 * `GET /admin/models`: the configured models, in config order, with `strategy`, `fallbacks`, `max_retries`,
 * `timeouts` (ms), `price` (USD per million tokens) and `targets` (`deployment` = `<provider>/<upstream model>`, the
 * key of `GET /admin/health`). `GET /admin/health`: live state of every deployment of a configured model plus any
 * other deployment called since start (`<provider>/<model>` ids): requests `in_flight`, `latency_ms_avg` (moving
 * average of time to first byte, ms, null before the first success), `consecutive_failures`, and
 * `cooling_down_until` (ISO-8601 while the circuit breaker skips it, else null).
 */
export function addDeploymentsRoutes(router: Router, gateway: Gateway): void {
  router.get('/models', (_req, res) => {
    const data = gateway.router.models.map((model) => ({
      id: model.id,
      strategy: model.strategy ?? 'weighted',
      fallbacks: model.fallbacks ?? [],
      max_retries: model.maxRetries ?? gateway.policy.maxRetries,
      timeouts: model.timeouts ?? {},
      price: model.price ?? null,
      targets: gateway.router.plan(model.id).models[0]!.targets.map((t) => ({
        deployment: t.key,
        provider: t.provider,
        upstream_model: t.upstreamModel,
        weight: t.weight,
        price: t.price ?? null,
      })),
    }));
    res.json({ object: 'list', data });
  });
  router.get('/health', (_req, res) => {
    const models = new Map<string, string[]>();
    for (const model of gateway.router.models) {
      for (const target of gateway.router.plan(model.id).models[0]!.targets) {
        const list = models.get(target.key) ?? [];
        if (!list.includes(model.id)) list.push(model.id);
        models.set(target.key, list);
      }
    }
    for (const snapshot of gateway.health.snapshot()) if (!models.has(snapshot.key)) models.set(snapshot.key, []);
    res.json({ object: 'list', data: [...models].map(([key, ids]) => healthView(gateway.health.snapshot(key), ids)) });
  });
}
