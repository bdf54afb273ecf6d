import { redactSecrets } from '@switchyard/core';
import type { RequestHandler } from 'express';

/**
 * One dependency `GET /readyz` asks before saying the gateway can take traffic: `check` resolves when it answers and
 * rejects (or times out) with the reason otherwise. Add one for each backing service (store, Redis) or state
 * (shutting down).
 */
export interface ReadinessCheck {
  /** Shown in the answer, e.g. `store`, `redis`. */
  name: string;
  check(): Promise<void>;
}

/** One check's outcome in the `/readyz` answer. */
export interface ReadinessResult {
  status: 'ok' | 'failing';
  /** Why it failed (secrets redacted). */
  reason?: string;
}

/**
 * `GET /readyz`: runs every check at once, each given at most `timeoutMs` (ms). 200
 * `{"status":"ready","checks":{"store":{"status":"ok"}}}` when all pass; 503
 * `{"status":"not_ready","checks":{"store":{"status":"failing","reason":"…"}}}` otherwise. Reasons pass through
 * `redactSecrets`. Liveness stays at `/healthz`, which asks nothing.
 */
export function readinessHandler(
  checks: readonly ReadinessCheck[],
  options: { timeoutMs?: number; secrets?: readonly string[] } = {},
): RequestHandler {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const run = async (check: ReadinessCheck): Promise<ReadinessResult> => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        check.check(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return { status: 'ok' };
    } catch (error) {
      const reason = (error as Error)?.message || String(error) || 'failed';
      return { status: 'failing', reason: redactSecrets(reason, options.secrets ?? []) };
    } finally {
      clearTimeout(timer);
    }
  };
  return (_req, res, next) => {
    Promise.all(checks.map(async (check) => [check.name, await run(check)] as const))
      .then((results) => {
        const ready = results.every(([, result]) => result.status === 'ok');
        res
          .status(ready ? 200 : 503)
          .json({ status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(results) });
      })
      .catch(next);
  };
}
