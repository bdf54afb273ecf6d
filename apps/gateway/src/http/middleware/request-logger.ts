import { redactSecrets } from '@switchyard/core';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { locals, onResponseClose } from '../request-locals.js';

/** Longest error message logged, characters: upstream error bodies can be megabytes. */
export const MAX_LOGGED_MESSAGE_CHARS = 2_000;
/** Longest request path logged, characters. */
export const MAX_LOGGED_PATH_CHARS = 512;
const clip = (text: string, max = MAX_LOGGED_MESSAGE_CHARS) =>
  text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;

/**
 * One pino line per request when it ends: `request_id`, `method`, `path`, `model`, `provider`, `status`, `latency_ms`
 * (and `err` for failures), at `info` (< 400), `warn` (4xx) or `error` (5xx or a broken stream). Headers and bodies are
 * never logged, so no gateway or upstream key can appear; error messages pass through `redactSecrets` (`secrets`:
 * gateway and upstream keys), lose any `Bearer` token and are cut to {@link MAX_LOGGED_MESSAGE_CHARS} characters (paths to
 * {@link MAX_LOGGED_PATH_CHARS}) (after
 * redaction, so a cut never leaves part of a key). One flat object per request keeps the cost near zero.
 * @see https://getpino.io/#/docs/api?id=logging-method-parameters
 */
export function requestLogger(logger: Logger, secrets: readonly string[] = []): RequestHandler {
  const clean = (text: string) => clip(redactSecrets(text, secrets).replace(/Bearer\s+\S+/gi, 'Bearer [redacted]'));
  return (req, res, next) => {
    const started = performance.now();
    onResponseClose(res, () => {
      const { requestId, model, provider, error } = locals(res);
      const status = res.statusCode;
      const aborted = !res.writableFinished;
      const line: Record<string, unknown> = {
        request_id: requestId,
        method: req.method,
        path: clip(req.originalUrl.split('?')[0] ?? '', MAX_LOGGED_PATH_CHARS),
        model,
        provider,
        status,
        latency_ms: Math.round((performance.now() - started) * 1000) / 1000,
      };
      if (aborted) line.aborted = true;
      if (error) line.err = { type: (error as Error).name, message: clean(String((error as Error).message ?? error)) };
      const level = error || status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      logger[level](line, `${req.method} ${line.path as string} ${status}`);
    });
    next();
  };
}
