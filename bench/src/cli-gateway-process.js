// Switchyard started through its CLI (`switchyard start --config FILE ...args`), e.g. with `--workers 2`: argv[2] is
// the mock upstream URL, argv[3] a JSON array of extra CLI arguments, argv[4] optional extra YAML. Same config as
// gateway-process.js on a fixed free port; announces the URL once the CLI prints it, and stops the whole process tree
// (cluster primary and workers) when the bench goes away.
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveChild } from './child.js';
import { BENCH_KEY } from './bench-keys.js';

const [upstream, extraArgs = '[]', extraYaml = ''] = process.argv.slice(2);
const cli = fileURLToPath(new URL('cli.js', import.meta.resolve('@switchyard/gateway')));
const port = await new Promise((resolve) => {
  const server = createServer().listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});
const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-'));
const file = join(dir, 'bench.yaml');
await writeFile(
  file,
  `
keys: ["${BENCH_KEY}"]
server: { host: 127.0.0.1, port: ${port} }
providers:
  openai: { adapter: openai, api_key: sk-bench-upstream-000, base_url: "${upstream}/v1" }
models:
  - { id: bench, provider: openai, upstream: gpt-4.1-nano, price: { input: 0.1, output: 0.4 } }
  - { id: embed, provider: openai, upstream: text-embedding-3-small }
  - { id: whisper, provider: openai, upstream: whisper-1 }
log: { level: "${process.env.BENCH_LOG_LEVEL ?? 'info'}" }
${extraYaml}
`,
);
const child = spawn(process.execPath, [cli, 'start', '--config', file, ...JSON.parse(extraArgs)], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
let output = '';
let announced = false;
child.stderr.setEncoding('utf8').on('data', (chunk) => {
  output += chunk;
  const url = /switchyard listening on (\S+)/.exec(output)?.[1];
  if (url && !announced) {
    announced = true;
    serveChild({ url: url.replace(/\/v1$/, '') });
  }
});
child.once('exit', (code) => {
  process.stderr.write(`bench: switchyard CLI exited with ${code}\n${output}`);
  process.exit(1);
});
const stop = () => {
  child.removeAllListeners('exit');
  child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
