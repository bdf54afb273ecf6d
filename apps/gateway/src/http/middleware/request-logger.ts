import { redactSecrets } from '@switchyard/core';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { locals } from '../request-locals.js';

/**
 * One pino line per request when it ends: request id, method, path, model, provider, status, latency (ms).
 * Headers and bodies are not logged, so neither gateway nor upstream keys can appear; error messages pass through
 * `redactSecrets` (given `secrets`: gateway keys and upstream keys) and `authorization` / `x-api-key` paths are redacted as a second line of defence.
 * @see https://github.com/pinojs/pino-http
 */
export function requestLogger(logger: Logger, secrets: readonly string[] = []): RequestHandler {
  const clean = (text: string) => redactSecrets(text, secrets).replace(/Bearer\s+\S+/gi, 'Bearer [redacted]');
  return pinoHttp({
    logger,
    genReqId: (_req, res) => locals(res as never).requestId,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id', responseTime: 'latency_ms' },
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      err: (err: Error) => ({ type: err.name, message: clean(err.message) }),
    },
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', '*.api_key', '*.apiKey'], censor: '[redacted]' },
    customProps: (_req, res) => {
      const { model, provider } = locals(res as never);
      return { model, provider };
    },
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    customSuccessMessage: (req, res) => `${req.method} ${req.url?.split('?')[0]} ${res.statusCode}`,
    customErrorMessage: (req, res) => `${req.method} ${req.url?.split('?')[0]} ${res.statusCode}`,
  }) as unknown as RequestHandler;
}
