#!/usr/bin/env node
import cluster from 'node:cluster';
import { parseArgs } from 'node:util';
import { redactSecrets } from '@switchyard/core';
import { checkWorkersConfig } from './cluster/check-workers-config.js';
import { resolveWorkerCount } from './cluster/resolve-worker-count.js';
import { runPrimary } from './cluster/run-primary.js';
import { ConfigError } from './config/config-error.js';
import { configFromEnv } from './config/config-from-env.js';
import { loadConfigFile } from './config/load-config.js';
import { serveClusterMetrics } from './cluster/cluster-metrics.js';
import { logUnexpectedFailures } from './log-unexpected-failures.js';
import { startServer } from './start-server.js';

const HELP = `Usage: switchyard start [--config FILE] [--port N] [--host HOST] [--workers N|auto]

Starts the Switchyard gateway (OpenAI-compatible API under /v1).
  --config FILE  YAML config (default: $SWITCHYARD_CONFIG; without one, providers come from
                 OPENAI_API_KEY / ANTHROPIC_API_KEY / GEMINI_API_KEY and keys from SWITCHYARD_API_KEY)
  --port N       overrides server.port
  --host HOST    overrides server.host
  --workers N    runs N gateway processes on one port (node:cluster; 'auto' = one per core);
                 overrides server.workers. Virtual keys then need redis.url.
`;

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string', short: 'c' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      workers: { type: 'string', short: 'w' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals[0] !== 'start') {
    process.stdout.write(HELP);
    process.exitCode = values.help ? 0 : 1;
    return;
  }
  const file = values.config ?? process.env.SWITCHYARD_CONFIG;
  const config = file ? await loadConfigFile(file) : await configFromEnv();
  if (values.port !== undefined) {
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new ConfigError(`--port: '${values.port}' is not a port number.`);
    config.server.port = port;
  }
  if (values.host) config.server.host = values.host;
  const workers = resolveWorkerCount(values.workers, config.server.workers);
  if (workers > 1 && cluster.isPrimary) {
    checkWorkersConfig(config, workers);
    serveClusterMetrics();
    // Workers get the shutdown grace period plus time to write the ledger before the primary gives up on them.
    const stopTimeoutMs = config.server.shutdown_timeout_ms + 15_000;
    const url = await runPrimary({
      workers,
      stopTimeoutMs,
      log: (line) => process.stderr.write(`switchyard: ${line}\n`),
    });
    process.stderr.write(
      `switchyard listening on ${url} (${workers} workers, ${Object.keys(config.providers).length} provider(s), ${config.models.length} model(s))\n`,
    );
    return;
  }
  const running = await startServer(config, { configPath: file });
  logUnexpectedFailures(running.logger, running.secrets);
  // In a cluster the primary reports the URL once all workers listen.
  if (!cluster.isWorker)
    process.stderr.write(
      `switchyard listening on ${running.url} (${Object.keys(config.providers).length} provider(s), ${config.models.length} model(s))\n`,
    );
  // Graceful shutdown: /readyz 503 at once, stop accepting, let requests and streams finish within
  // server.shutdown_timeout_ms, cut the rest with an error (streams: one error event), write the ledger, exit 0.
  const stop = (signal: NodeJS.Signals) => {
    const graceMs = config.server.shutdown_timeout_ms;
    process.stderr.write(`switchyard: ${signal}: finishing requests in flight (up to ${graceMs} ms)\n`);
    setTimeout(() => {
      process.stderr.write('switchyard: shutdown did not complete in time; exiting\n');
      process.exit(1);
    }, graceMs + 15_000).unref();
    running.shutdown(graceMs).then(
      ({ cut }) => {
        if (cut > 0)
          process.stderr.write(
            `switchyard: ${cut} request(s) still running after ${graceMs} ms were ended with an error\n`,
          );
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`switchyard: shutdown failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // SIGHUP: re-read the upstream providers' secrets (the config file, its ${ENV} substitutions and *_file files) and
  // swap in new adapters; calls in flight finish with the old ones. A failure keeps every provider as it was.
  process.on('SIGHUP', () => {
    (async () => {
      const next = file ? await loadConfigFile(file) : await configFromEnv();
      await running.reloadSecrets(next);
    })().catch((error: unknown) => {
      running.logger.error(
        { err: { message: redactSecrets((error as Error).message, running.secrets) } },
        'SIGHUP: provider secrets not re-read; the old ones stay in use',
      );
    });
  });
}

main(process.argv.slice(2)).catch((error: unknown) => {
  const message =
    error instanceof ConfigError || (error as NodeJS.ErrnoException).code
      ? (error as Error).message
      : String((error as Error).stack ?? error);
  process.stderr.write(`switchyard: ${message}\n`);
  process.exit(1);
});
