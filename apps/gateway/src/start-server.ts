import { type Server, createServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Accounts } from '@switchyard/accounts';
import { consoleDir } from '@switchyard/console';
import type { Gateway } from '@switchyard/core';
import { RealtimeServer } from '@switchyard/front-door-realtime';
import type { Logger } from 'pino';
import type { SwitchyardRedis } from '@switchyard/redis';
import { BudgetAlerts } from './accounts/budget-alerts.js';
import { openAccounts } from './accounts/open-accounts.js';
import { openFiles } from './accounts/open-files.js';
import { BatchRunner } from './batches/batch-runner.js';
import { NativeBatches } from './batches/native-batches.js';
import { Batches } from './batches/batches.js';
import { openResponses } from './accounts/open-responses.js';
import { buildGateway } from './build-gateway.js';
import { ProviderSet } from './providers/create-providers.js';
import { collectSecrets } from './collect-secrets.js';
import type { GatewayConfig } from './config/config-schema.js';
import { openAdminSso } from './http/admin/admin-sso.js';
import { createApp } from './http/create-app.js';
import { guardConnections } from './http/connection-fairness.js';
import { expressMessageClasses } from './http/express-message-classes.js';
import type { ReadinessCheck } from './http/readiness.js';
import { InflightRequests } from './http/inflight-requests.js';
import { createLogger } from './logging/create-logger.js';
import { clusterMetricsClient } from './cluster/cluster-metrics.js';
import { GatewayMetrics } from './telemetry/gateway-metrics.js';
import { startTracing } from './telemetry/start-tracing.js';

/** Secrets shorter than this are not redacted (as in collectSecrets): they would garble every log line. */
const redactable = (secret: string) => secret.length >= 6;

/** A running gateway. */
export interface RunningServer {
  /** Base URL of the OpenAI-compatible API, e.g. `http://127.0.0.1:8787/v1`. */
  url: string;
  port: number;
  server: Server;
  gateway: Gateway;
  /** Virtual keys and the ledger, when configured (`admin` / `store`). */
  accounts?: Accounts;
  /** Prometheus metrics (also served at `GET /metrics` unless `metrics.enabled` is false). */
  metrics: GatewayMetrics;
  /** The checks behind `GET /readyz` (adapters, shutdown, store); push your own `{ name, check }`. */
  readiness: ReadinessCheck[];
  /** The request logger. */
  logger: Logger;
  /** `GET /v1/realtime` WebSocket sessions (see `RealtimeServer`). */
  realtime: RealtimeServer;
  /** Every configured secret (gateway, admin and upstream keys, those read from files), for redaction; grows on reload. */
  secrets: readonly string[];
  /**
   * Re-reads the upstream providers' secrets from `config` (the config read again: `${ENV}` substitutions, settings and
   * `<setting>_file` files) and rebuilds the adapters without dropping traffic: calls in flight finish with the old
   * ones, later calls use the new ones. All or nothing: on any error (ConfigError naming the setting) every provider
   * keeps its adapter. Resolves with the providers rebuilt. The signal handler of `switchyard start` calls it on `SIGHUP`.
   */
  reloadSecrets(config: GatewayConfig): Promise<{ providers: string[] }>;
  /** Stops accepting connections and closes idle ones; resolves when the server is closed. */
  close(): Promise<void>;
  /**
   * Graceful shutdown: `/readyz` answers 503 at once, no new connections or requests are accepted, requests and
   * streams in flight get `graceMs` (default `server.shutdown_timeout_ms`) to finish, those still running then end
   * with a 503 `server_shutting_down` error (streams: one error event, no `[DONE]`), the ledger is written and the
   * store closed. Realtime sessions end (error event `server_shutting_down`, close code 1012) once their response in
   * progress is done, at the latest after the grace. Resolves with how many requests and sessions had to be cut.
   */
  shutdown(graceMs?: number): Promise<{ cut: number }>;
}

/** Options of {@link startServer}. */
export interface StartServerOptions {
  logger?: Logger;
  /** Where third-party adapter packages are resolved from. Default: `process.cwd()`. */
  cwd?: string;
  /** The config file's path: a relative `store.sqlite` path is resolved against its folder. */
  configPath?: string;
}

/**
 * Builds the gateway from a validated config and listens on `config.server.host:port` (port 0 = ephemeral).
 * Throws ConfigError for provider problems, and the listen error (e.g. EADDRINUSE).
 */
export async function startServer(config: GatewayConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? (await createLogger(config.log));
  // Redis (and its client library) is loaded only when configured.
  const redis: SwitchyardRedis | undefined = config.redis
    ? await (await import('@switchyard/redis')).SwitchyardRedis.connect({
        url: config.redis.url,
        keyPrefix: config.redis.key_prefix,
        onError: config.redis.on_error,
        commandTimeoutMs: config.redis.timeout_ms,
        warn: (message, failures) => logger.warn({ failures, on_error: config.redis?.on_error }, message),
      })
    : undefined;
  // Budget alerts: a log line per threshold crossed, and with `alerts` a signed webhook event.
  const alerts = new BudgetAlerts({ logger, webhookUrl: config.alerts?.webhook_url, secret: config.alerts?.secret });
  const accounts = await openAccounts(config, options.configPath, logger, redis, alerts).catch(
    async (error: unknown) => {
      await redis?.close();
      throw error;
    },
  );
  const providerSet = await ProviderSet.create(config.providers, options.cwd).catch(async (error: unknown) => {
    await accounts?.close();
    await redis?.close();
    throw error;
  });
  const gateway = await buildGateway(config, {
    cwd: options.cwd,
    providerSet,
    onBackgroundError: (error, provider) =>
      logger.warn({ provider, err: { message: (error as Error).message } }, 'model list failed'),
    accounting: accounts?.accounting,
    sharedCooldown: config.routing.cooldown.shared ? redis : undefined,
    responseCacheStore: redis?.responseCacheStore(),
  }).catch(async (error: unknown) => {
    await accounts?.close();
    await redis?.close();
    throw error;
  });
  const metrics = new GatewayMetrics();
  metrics.cluster = clusterMetricsClient(metrics.registry);
  if (redis) metrics.redisReplicas = () => redis.replicas;
  if (config.metrics.enabled) gateway.observe(metrics.observer);
  const tracing = await startTracing(gateway, config.telemetry);
  const inflight = new InflightRequests();
  let shuttingDown = false;
  const readiness: ReadinessCheck[] = [
    {
      name: 'adapters',
      check: async () => {
        if (gateway.router.providers.size === 0) throw new Error('no provider adapter is loaded');
      },
    },
    {
      name: 'shutdown',
      check: async () => {
        if (shuttingDown) throw new Error('the gateway is shutting down');
      },
    },
  ];
  if (accounts) readiness.push({ name: 'store', check: () => accounts.ping() });
  if (redis) readiness.push({ name: 'redis', check: () => redis.ping() });
  const responses = await openResponses(config, options.configPath);
  const files = await openFiles(config, options.configPath, (error) =>
    logger.warn({ err: { message: (error as Error).message } }, 'deleting expired files failed'),
  );
  const { sso: adminSso, clientSecret } = accounts ? await openAdminSso(accounts, config) : {};
  const secrets = [
    ...collectSecrets(config),
    ...providerSet.fileSecrets.filter(redactable),
    ...(clientSecret ? [clientSecret] : []),
  ];
  const native = new NativeBatches({
    files: files.files,
    gateway,
    accounts,
    enabled: config.batches.native,
    upstreamPollMs: config.batches.upstream_poll_ms,
  });
  const batches = new Batches(files.files, gateway, { maxLines: config.batches.max_lines, accounts, native });
  const runner = new BatchRunner({
    files: files.files,
    gateway,
    responses: responses.frontDoor,
    secrets,
    settings: {
      concurrency: config.batches.concurrency,
      yieldAbove: config.batches.yield_above,
      leaseMs: config.batches.lease_ms,
      pollMs: config.batches.poll_ms,
    },
    native,
    callerOf: async (batch) => (accounts ? accounts.principalById(batch.key_id) : undefined),
    liveRequests: () => inflight.size,
    onError: (error) =>
      logger.warn({ err: { message: (error as Error).message } }, 'batch runner failed; retrying at the next poll'),
  });
  const { server: settings } = config;
  const app = createApp(gateway, {
    logger,
    secrets,
    bodyLimit: settings.body_limit,
    accounts,
    adminSso,
    readiness,
    responses: responses.frontDoor,
    files: files.files,
    batches: { batches, onCreated: () => runner.wake() },
    consoleDir: config.admin?.console ? consoleDir : undefined,
    metrics: config.metrics.enabled ? metrics : undefined,
    metricsAuth: config.metrics.auth,
    inflight,
    tracing,
    sse: { keepAliveMs: settings.stream_keepalive_ms, writeTimeoutMs: settings.client_write_timeout_ms },
    sessionHeader: config.budgets.session_header,
  });
  const realtime = createRealtimeServer(gateway, config, secrets, logger, config.metrics.enabled ? metrics : undefined);
  // Slow clients: headers and the whole request must arrive in time (checked every second at most), and at most
  // `max_connections` sockets are open at once, `max_connections_per_client` of one client address, with a room for
  // health probes beyond (see guardConnections), so descriptors never run out and one address cannot take them all. A
  // burst of new connections waits in the kernel's queue of `backlog` until accepted instead of being reset.
  // Requests and responses are made with the app's prototypes (one hidden class for all, see expressMessageClasses).
  const server = createServer({
    ...expressMessageClasses(app),
    headersTimeout: settings.headers_timeout_ms,
    requestTimeout: settings.request_timeout_ms,
    connectionsCheckingInterval: Math.min(1_000, settings.headers_timeout_ms),
  });
  server.on(
    'request',
    guardConnections(
      server,
      {
        maxConnections: settings.max_connections,
        maxPerClient: settings.max_connections_per_client,
        trustProxy: settings.trust_proxy,
      },
      app,
      // WebSocket upgrades (`GET /v1/realtime`) arrive on the same server, outside Express (see RealtimeServer).
      (request, socket, head) => realtime.handleUpgrade(request, socket, head),
    ),
  );
  server.listen({ port: settings.port, host: settings.host, backlog: settings.backlog });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  await runner.start();
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  let closing: Promise<void> | undefined;
  // Stops the listener and resolves once every connection has closed. `keepIdle` (shutdown) uses net.Server's close,
  // which keeps kept-alive idle connections open (http.Server's closes them) until the drain ends, so that probes on
  // them see /readyz 503 and new requests on them get 503 with `connection: close`.
  const stopListening = (keepIdle: boolean) =>
    (closing ??= (async () => {
      // No batch line is claimed from now on; those running end (and are stored) before the stores close.
      const runnerStopped = runner.stop();
      await new Promise<void>((resolve, reject) => {
        const done = (error?: Error) =>
          error && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING' ? reject(error) : resolve();
        if (keepIdle) net.Server.prototype.close.call(server, done);
        else server.close(done);
      });
      await runnerStopped;
      await accounts?.settlementsDone();
      await accounts?.close();
      await alerts.close();
      await redis?.close();
      await tracing
        ?.shutdown()
        .catch((error: unknown) => logger.warn({ err: { message: (error as Error).message } }, 'trace export failed'));
      await responses.close();
      await files.close();
      await gateway.close();
    })());
  return {
    url: `http://${host}:${port}/v1`,
    port,
    server,
    gateway,
    accounts,
    metrics,
    readiness,
    logger,
    realtime,
    secrets,
    async reloadSecrets(next) {
      const { providers, secrets: read } = await providerSet.reload(next.providers);
      for (const secret of [...collectSecrets(next), ...read.filter(redactable)])
        if (!secrets.includes(secret)) secrets.push(secret);
      logger.info({ providers }, 'provider secrets re-read');
      return { providers };
    },
    // Open sessions would hold the listener open: they end first.
    close: async () => {
      await realtime.close();
      await stopListening(false);
    },
    async shutdown(graceMs = config.server.shutdown_timeout_ms) {
      shuttingDown = true;
      const closed = stopListening(true);
      const [requestsCut, sessions] = await Promise.all([inflight.drain(graceMs), realtime.drain(graceMs)]);
      const cut = requestsCut + sessions.cut;
      server.closeAllConnections();
      server.close(() => {}); // clears http.Server's connection-checking timer; the listener is already closed
      await closed;
      return { cut };
    },
  };
}

/** The Realtime front door with the config's `realtime` limits, its sessions logged (one line each) and measured. */
function createRealtimeServer(
  gateway: Gateway,
  config: GatewayConfig,
  secrets: readonly string[],
  logger: Logger,
  metrics?: GatewayMetrics,
): RealtimeServer {
  const limits = config.realtime;
  return new RealtimeServer(gateway, {
    maxSessionMs: limits.max_session_ms,
    idleTimeoutMs: limits.idle_timeout_ms,
    maxMessageBytes: limits.max_message_bytes,
    maxBufferedBytes: limits.max_buffered_bytes,
    checkIntervalMs: limits.check_interval_ms,
    connectTimeoutMs: limits.connect_timeout_ms,
    secrets,
    onSessionStart: () => metrics?.realtimeSessionStarted(),
    onSessionEnd: (end) => {
      metrics?.realtimeSessionEnded(end.provider, end.reason, end.durationMs / 1000);
      logger.info(
        {
          req_id: end.requestId,
          session_id: end.sessionId,
          model: end.model,
          provider: end.provider,
          reason: end.reason,
          close_code: end.closeCode,
          responses: end.responses,
          duration_ms: end.durationMs,
        },
        'realtime session ended',
      );
    },
    onError: (error) => logger.warn({ err: { message: (error as Error).message } }, 'realtime booking failed'),
    onRefused: (refusal) =>
      logger.info(
        { req_id: refusal.requestId, status: refusal.status, code: refusal.code },
        'realtime session refused',
      ),
  });
}
