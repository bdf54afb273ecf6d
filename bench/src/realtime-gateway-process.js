// Switchyard serving /v1/realtime for the realtime bench: auth on, metrics on, one log line per session (JSON to
// /dev/null). argv[2] is the mock Realtime upstream's base URL (`http://127.0.0.1:PORT/v1`).
import { createLogger, parseConfig, startServer } from '@switchyard/gateway';
import { BENCH_KEY } from './bench-keys.js';
import { serveChild } from './child.js';

const config = parseConfig(
  `
keys: ["${BENCH_KEY}"]
server: { host: 127.0.0.1, port: 0, max_connections: 12000, max_connections_per_client: 12000 }
providers:
  openai: { adapter: openai, api_key: sk-bench-upstream-000, base_url: "${process.argv[2]}" }
models:
  - { id: voice, provider: openai, upstream: gpt-realtime, price: { input: 4, output: 16, audio_input: 32, audio_output: 64 } }
`,
  'bench.yaml',
  process.env,
);
const running = await startServer(config, {
  logger: await createLogger({ level: 'info', format: 'json' }, false, '/dev/null'),
});
serveChild({ url: running.url.replace(/\/v1$/, '') });
process.on('SIGTERM', () => process.exit(0));
