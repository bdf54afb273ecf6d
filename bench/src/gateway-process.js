// Switchyard with a normal config: auth on, validation on, metrics on, one log line per request at info (the gateway's
// own JSON logger, as `switchyard start` builds it, writing to /dev/null).
// argv[2] is the mock upstream URL, argv[3] optional extra YAML (e.g. `metrics: { enabled: false }`). `max_connections`
// and `max_connections_per_client` are raised from their defaults (4,096 and 1,024) so that the memory scenario can
// hold about 10,000 idle streams from one address.
import { createLogger, parseConfig, startServer } from '@switchyard/gateway';
import { serveChild } from './child.js';
import { BENCH_KEY } from './bench-keys.js';

const upstream = process.argv[2];
const config = parseConfig(
  `
keys: ["${BENCH_KEY}"]
server: { host: 127.0.0.1, port: 0, max_connections: 12000, max_connections_per_client: 12000 }
providers:
  openai: { adapter: openai, api_key: sk-bench-upstream-000, base_url: "${upstream}/v1" }
models:
  - { id: bench, provider: openai, upstream: gpt-4.1-nano, price: { input: 0.1, output: 0.4 } }
  - { id: embed, provider: openai, upstream: text-embedding-3-small }
  - { id: whisper, provider: openai, upstream: whisper-1 }
log: { level: "\${BENCH_LOG_LEVEL:-info}" }
${process.argv[3] ?? ''}
`,
  'bench.yaml',
  process.env,
);
const running = await startServer(config, {
  logger: await createLogger({ level: config.log.level, format: 'json' }, false, '/dev/null'),
});
serveChild({ url: running.url.replace(/\/v1$/, '') });
process.on('SIGTERM', () => process.exit(0));
