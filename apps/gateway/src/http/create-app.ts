import type { Accounts } from '@switchyard/accounts';
import type { Gateway } from '@switchyard/core';
import type { ResponsesFrontDoor } from '@switchyard/front-door-responses';
import express, { type Express, type RequestHandler, Router } from 'express';
import { type Logger, pino } from 'pino';
import type { Batches } from '../batches/batches.js';
import type { Files } from '../files/files.js';
import type { GatewayMetrics } from '../telemetry/gateway-metrics.js';
import { openApiRoute } from '../openapi/openapi-route.js';
import type { AdminSso } from './admin/admin-sso.js';
import { createAdminRouter } from './admin/create-admin-router.js';
import { serveConsole } from './console/serve-console.js';
import { createRouter } from './create-router.js';
import { type ReadinessCheck, readinessHandler } from './readiness.js';
import type { InflightRequests } from './inflight-requests.js';
import { composeMiddleware } from './middleware/compose-middleware.js';
import { handleErrors } from './middleware/handle-errors.js';
import { measureRequests } from './middleware/measure-requests.js';
import { requestContext } from './middleware/request-context.js';
import { requestLogger } from './middleware/request-logger.js';
import { createRouteDeps } from './routes/route-deps.js';
import { metricsRoute } from './routes/metrics-route.js';

/** Options of {@link createApp}. */
export interface AppOptions {
  /** pino logger for the one-line-per-request log. Default: pino at `info` on stdout. */
  logger?: Logger;
  /** Strings that must never be logged (gateway and upstream keys). */
  secrets?: readonly string[];
  /** Largest JSON body, bytes or a size string. Default `20mb`. */
  bodyLimit?: number | string;
  /** Virtual keys, limits, usage ledger and the admin API under `/admin`. */
  accounts?: Accounts;
  /** What `GET /readyz` asks (adapters, store, Redis, shutdown…); none = always ready. */
  readiness?: readonly ReadinessCheck[];
  /** Console single sign-on (OpenID Connect) and sessions (see `createAdminSso`); needs `accounts`. */
  adminSso?: AdminSso;
  /** The admin console's built files (`@switchyard/console`), served at `/ui` when set together with `accounts`. */
  consoleDir?: string;
  /** Serves `GET /metrics` and records API requests in it. */
  metrics?: GatewayMetrics;
  /** `GET /metrics` requires the admin master key (needs `accounts`). */
  metricsAuth?: 'none' | 'master';
  /** Tracks requests in flight for graceful shutdown. */
  inflight?: InflightRequests;
  /** OpenTelemetry: its middleware opens the SERVER span of every `/v1` request. */
  tracing?: { middleware(): RequestHandler };
  /** The Responses API front door and its store. Default: one with a bounded in-memory store. */
  responses?: ResponsesFrontDoor;
  /** A request header naming the agent session besides Claude Code's (lower case; see `budgets.session_header`). */
  sessionHeader?: string;
  /** Stream keep-alive interval and the slow-reader timeout, ms (see `sendSSE`). */
  sse?: { keepAliveMs?: number; writeTimeoutMs?: number };
  /** `/v1/files` (see `openFiles`); without it those routes answer 404. */
  files?: Files;
  /** `/v1/batches` (see `Batches`) and a hook told of each new batch; without it those routes answer 404. */
  batches?: { batches: Batches; onCreated?: () => void };
}

/**
 * The Switchyard HTTP app: `GET /healthz` (liveness) and `GET /readyz` (readiness: store, Redis; no auth), `GET /metrics`
 * (Prometheus), the OpenAI-compatible API under `/v1`, and with accounts the admin API under `/admin` and (with
 * `consoleDir`) the admin console under `/ui`
 * (see {@link createRouter}), with request ids, the request log and OpenAI-shaped errors.
 * Listen on it directly, or mount it in another Express app: `outer.use('/ai', createApp(gateway))`.
 */
export function createApp(gateway: Gateway, options: AppOptions = {}): Express {
  if (options.metricsAuth === 'master' && !options.accounts)
    throw new Error("metricsAuth 'master' needs accounts (the admin master key).");
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.locals.sessionHeader = options.sessionHeader;
  // The operational routes in a router of their own, which only GET and HEAD requests enter.
  const operational = Router();
  operational.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  operational.get('/openapi.json', openApiRoute());
  operational.get('/readyz', readinessHandler(options.readiness ?? [], { secrets: options.secrets }));
  if (options.accounts && options.consoleDir) operational.use('/ui', serveConsole(options.consoleDir));
  if (options.metrics)
    operational.get(
      '/metrics',
      metricsRoute(options.metrics, options.metricsAuth === 'master' ? options.accounts : undefined),
    );
  const serveOperational: RequestHandler = (req, res, next) =>
    req.method === 'GET' || req.method === 'HEAD' ? operational(req, res, next) : next();
  // Request id and signal, the operational routes, then (for every other request) in-flight tracking and the request
  // log: one layer of the app's router (see composeMiddleware).
  app.use(
    composeMiddleware([
      requestContext(),
      serveOperational,
      options.inflight?.middleware(),
      requestLogger(options.logger ?? pino(), options.secrets),
    ]),
  );
  if (options.accounts)
    app.use(
      '/admin',
      createAdminRouter(
        options.accounts,
        createRouteDeps(gateway, options.bodyLimit ?? '20mb', options.accounts),
        options.adminSso,
        options.batches?.batches,
      ),
    );
  // The `/v1` metrics and tracing run before the API's router in the same layer: one prefix match and one trim of
  // `req.url` per request, not two.
  app.use(
    '/v1',
    composeMiddleware([
      options.metrics && measureRequests(options.metrics),
      options.tracing?.middleware(),
      createRouter(gateway, {
        bodyLimit: options.bodyLimit,
        accounts: options.accounts,
        responses: options.responses,
        secrets: options.secrets,
        sse: options.sse,
        files: options.files,
        batches: options.batches,
      }),
    ]),
  );
  app.use((req) => {
    throw Object.assign(new Error(`Invalid URL (${req.method} ${req.path})`), { status: 404 });
  });
  app.use(handleErrors(options.secrets));
  return app;
}
