#!/usr/bin/env node
/**
 * `./dev demo`: runs the real gateway in front of mock OpenAI, Anthropic and Gemini upstreams that replay RECORDED
 * traffic (the fixtures of @switchyard/testkit, provenance in packages/testkit/fixtures/<provider>/README.md), asks the
 * same question of a model of each through the official `openai` SDK, calls every other operation once, shows the
 * metrics endpoint and the ledger row of a call, then keeps the gateway running for curl.
 * The gateway's own request log goes to a file (its path is printed), so it does not interleave with this output.
 * Options: `--port N` (default 8787, falls back to a free port), `--once` (exit after the calls).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  makeWav,
  type MockRoute,
  openaiReplayRoutes,
  sseFrames,
  startMockUpstream,
  testkitFixtures,
} from '@switchyard/testkit';
import OpenAI, { toFile } from 'openai';
import { pino } from 'pino';
import { type RunningServer, gatewayConfigSchema, startServer } from '@switchyard/gateway';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '8787' }, once: { type: 'boolean', default: false } },
});
const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
const line = (label: string, text: string) => console.log(`${bold(label.padEnd(28))} ${text}`);
const clip = (text: string, max = 90) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

const fixtures = testkitFixtures();
// The recorded OpenAI traffic answers chat with gpt-4.1-nano; list that model rather than the spec's placeholder id.
const recordedOpenAIModel = fixtures.json<{ model: string; created: number }>('openai/openai-text.json');
const openaiRoutes: Record<string, MockRoute> = {
  ...openaiReplayRoutes(),
  'GET /v1/models': {
    json: {
      object: 'list',
      data: [{ id: 'gpt-4.1-nano', object: 'model', created: recordedOpenAIModel.created, owned_by: 'openai' }],
    },
  },
};
const anthropicRoutes: Record<string, MockRoute> = {
  'POST /v1/messages': (request) =>
    (request.json as { stream?: boolean }).stream
      ? { chunks: sseFrames(fixtures.chunkLines('anthropic/anthropic-text.chunks.txt'), 'typed') }
      : { json: fixtures.json('anthropic/anthropic-text.json') },
  'GET /v1/models': { json: fixtures.json('anthropic/anthropic-models.json') },
};
const geminiRoutes: Record<string, MockRoute> = {
  'POST /v1beta/models/*:generateContent': { json: fixtures.json('google/google-text.json') },
  'POST /v1beta/models/*:streamGenerateContent': {
    chunks: sseFrames(fixtures.chunkLines('google/google-text.chunks.txt'), 'gemini'),
  },
  'GET /v1beta/models': { json: fixtures.json('google/google-models.json') },
};
const [openaiUpstream, anthropicUpstream, geminiUpstream] = await Promise.all([
  startMockUpstream({ routes: openaiRoutes }),
  startMockUpstream({ routes: anthropicRoutes }),
  startMockUpstream({ routes: geminiRoutes }),
]);

const key = process.env.SWITCHYARD_API_KEY ?? `sk-demo-${randomBytes(12).toString('hex')}`;
const masterKey = `sk-demo-master-${randomBytes(12).toString('hex')}`;
const config = (port: number) =>
  gatewayConfigSchema.parse({
    server: { host: '127.0.0.1', port, shutdown_timeout_ms: 2_000 },
    keys: [key],
    admin: { master_key: masterKey },
    store: { sqlite: ':memory:' },
    providers: {
      openai: { adapter: 'openai', api_key: 'sk-not-a-real-upstream-key', base_url: `${openaiUpstream.url}/v1` },
      anthropic: { adapter: 'anthropic', api_key: 'sk-ant-not-a-real-upstream-key', base_url: anthropicUpstream.url },
      google: { adapter: 'google', api_key: 'AIza-not-a-real-upstream-key', base_url: `${geminiUpstream.url}/v1beta` },
    },
    models: [
      { id: 'gpt-4.1-nano', provider: 'openai', price: { input: 0.1, output: 0.4 } },
      {
        id: 'claude-sonnet-4-5',
        provider: 'anthropic',
        upstream: 'claude-sonnet-4-5-20250929',
        price: { input: 3, output: 15 },
      },
      { id: 'gemini-2.5-flash', provider: 'google', price: { input: 0.3, output: 2.5 } },
      { id: 'text-embedding-3-small', provider: 'openai' },
      { id: 'whisper-1', provider: 'openai' },
      { id: 'tts-1', provider: 'openai' },
      { id: 'dall-e-3', provider: 'openai' },
    ],
    log: { level: 'info', format: 'json' },
  });
const work = await mkdtemp(join(tmpdir(), 'switchyard-demo-'));
const logFile = join(work, 'gateway.log');
const logger = pino({ level: 'info' }, pino.destination({ dest: logFile, sync: false, mkdir: true }));
let running: RunningServer;
try {
  running = await startServer(config(Number(values.port)), { logger });
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  running = await startServer(config(0), { logger });
}
const origin = new URL(running.url).origin;

console.log(`\nSwitchyard demo: gateway ${running.url}`);
console.log(
  'Three mock upstreams (OpenAI, Anthropic, Gemini) REPLAY RECORDED responses (packages/testkit/fixtures); no real provider is called.',
);
console.log(`The gateway's request log: ${logFile}\n`);
const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });

console.log(bold("One SDK call, three providers (each answer is that provider's recorded reply):"));
const question = [{ role: 'user' as const, content: 'Say something.' }];
for (const [label, model] of [
  ['OpenAI    gpt-4.1-nano', 'gpt-4.1-nano'],
  ['Anthropic claude-sonnet-4-5', 'claude-sonnet-4-5'],
  ['Gemini    gemini-2.5-flash', 'gemini-2.5-flash'],
] as const) {
  const { data, response } = await client.chat.completions.create({ model, messages: question }).withResponse();
  const choice = data.choices[0];
  line(
    label,
    `${clip(choice?.message.content ?? '')} [${choice?.finish_reason}, ${data.usage?.total_tokens} tokens, $${response.headers.get('x-switchyard-cost-usd')}]`,
  );
}

console.log(bold('\nThe other operations:'));
const stream = await client.chat.completions.create({ model: 'claude-sonnet-4-5', messages: question, stream: true });
let chunks = 0;
let streamed = '';
for await (const chunk of stream) {
  chunks++;
  streamed += chunk.choices[0]?.delta?.content ?? '';
}
line('chat (stream, Anthropic)', `${chunks} chunks: ${clip(streamed)}`);
const models: string[] = [];
for await (const model of client.models.list()) models.push(model.id);
line('models', clip(models.join(', '), 200));
const embeddings = await client.embeddings.create({
  model: 'text-embedding-3-small',
  input: ['sunny day', 'rainy day'],
});
line(
  'embeddings',
  `${embeddings.data.length} vectors of ${embeddings.data[0]?.embedding.length} dims: [${embeddings.data[0]?.embedding.map((x) => x.toFixed(4)).join(', ')}]`,
);
const transcription = await client.audio.transcriptions.create({
  model: 'whisper-1',
  file: await toFile(makeWav(), 'tone.wav', { type: 'audio/wav' }),
});
line('transcription', clip(transcription.text));
const speech = await client.audio.speech.create({
  model: 'tts-1',
  voice: 'alloy',
  input: 'Hello from Switchyard',
  response_format: 'wav',
});
const speechFile = join(work, 'speech.wav');
await writeFile(speechFile, Buffer.from(await speech.arrayBuffer()));
line('speech', `${speech.headers.get('content-type')} written to ${speechFile}`);
const image = await client.images.generate({
  model: 'dall-e-3',
  prompt: 'A baby sea otter',
  size: '1024x1024',
  response_format: 'b64_json',
});
line(
  'image',
  `${image.data?.length} image(s), b64_json ${image.data?.[0]?.b64_json?.length} chars; revised prompt: ${clip(image.data?.[0]?.revised_prompt ?? '', 60)}`,
);

console.log(bold(`\nGET ${origin}/metrics (excerpt):`));
// Request metrics are counted when a response has ended; wait until the last call is in.
let metrics = '';
for (let i = 0; i < 50 && !/switchyard_requests_total\{operation="images.generations"/.test(metrics); i++) {
  metrics = await (await fetch(`${origin}/metrics`)).text();
  if (!metrics.includes('images.generations')) await new Promise((resolve) => setTimeout(resolve, 20));
}
for (const sample of metrics
  .split('\n')
  .filter((l) => /^switchyard_(requests_total|upstream_attempts_total|tokens_total)\{/.test(l))
  .slice(0, 10))
  console.log(`  ${sample}`);

console.log(
  bold(
    `\nThe ledger row of the Gemini call (GET ${origin}/admin/requests?model=gemini-2.5-flash&limit=1, master key):`,
  ),
);
const ledger = (await (
  await fetch(`${origin}/admin/requests?model=gemini-2.5-flash&limit=1`, {
    headers: { authorization: `Bearer ${masterKey}` },
  })
).json()) as { data: unknown[] };
console.log(`  ${JSON.stringify(ledger.data[0])}`);

const closeAll = async () => {
  await running.close();
  await Promise.all([openaiUpstream.close(), anthropicUpstream.close(), geminiUpstream.close()]);
  logger.flush();
};
if (values.once) {
  await closeAll();
} else {
  console.log(
    `\nThe gateway keeps running. Try:\n  curl ${running.url}/chat/completions -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\\n    -d '{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"Hello"}]}'`,
  );
  console.log(`  curl ${origin}/metrics\n  curl ${origin}/openapi.json`);
  console.log(`\nBase URL:   ${running.url}\nAPI key:    ${key}\nMaster key: ${masterKey}\nPress Ctrl-C to stop.`);
  process.once('SIGINT', () => void closeAll().finally(() => process.exit(0)));
}
