import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Accounts } from '@switchyard/accounts';
import { consoleDir } from '@switchyard/console';
import type { Gateway } from '@switchyard/core';
import { openAccounts } from './accounts/open-accounts.js';
import { type Logger, pino } from 'pino';
import { buildGateway } from './build-gateway.js';
import { collectSecrets } from './collect-secrets.js';
import type { GatewayConfig } from './config/config-schema.js';
import { createApp } from './http/create-app.js';
import type { ReadinessCheck } from './http/readiness.js';

/** A running gateway. */
export interface RunningServer {
  /** Base URL of the OpenAI-compatible API, e.g. `http://127.0.0.1:8787/v1`. */
  url: string;
  port: number;
  server: Server;
  gateway: Gateway;
  /** Virtual keys and the ledger, when configured (`admin` / `store`). */
  accounts?: Accounts;
  /** Stops accepting connections and closes idle ones; resolves when the server is closed. */
  close(): Promise<void>;
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
  const logger = options.logger ?? pino({ level: config.log.level });
  const gateway = await buildGateway(config, {
    cwd: options.cwd,
    onBackgroundError: (error, provider) => logger.warn({ provider, err: { message: (error as Error).message } }, 'model list failed'),
  });
  const accounts = await openAccounts(config, options.configPath, logger);
  const readiness: ReadinessCheck[] = accounts ? [{ name: 'store', check: () => accounts.ping() }] : [];
  const app = createApp(gateway, {
    logger,
    secrets: collectSecrets(config),
    bodyLimit: config.server.body_limit,
    accounts,
    readiness,
    consoleDir: config.admin?.console ? consoleDir : undefined,
  });
  const server = app.listen(config.server.port, config.server.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  server.keepAliveTimeout = 65_000;
  const { port, address } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${host}:${port}/v1`,
    port,
    server,
    gateway,
    accounts,
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
      await accounts?.close();
    },
  };
}
