#!/usr/bin/env node
/**
 * `./dev demo`: runs the real gateway in front of a mock OpenAI upstream that replays RECORDED traffic
 * (the fixtures of @switchyard/testkit, see packages/testkit/fixtures/openai/README.md), calls every endpoint once
 * with the official `openai` SDK, prints the answers, then keeps the gateway running for curl.
 * Options: `--port N` (default 8787, falls back to a free port), `--once` (exit after the calls).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeWav, openaiReplayRoutes, startMockUpstream } from '@switchyard/testkit';
import OpenAI, { toFile } from 'openai';
import { pino } from 'pino';
import { gatewayConfigSchema } from './config/config-schema.js';
import { type RunningServer, startServer } from './start-server.js';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8787' }, once: { type: 'boolean', default: false } } });
const line = (label: string, text: string) => console.log(`\x1b[1m${label.padEnd(16)}\x1b[0m ${text}`);
const clip = (text: string, max = 100) => (text.length > max ? `${text.slice(0, max)}…` : text).replace(/\s+/g, ' ');

const upstream = await startMockUpstream({ routes: openaiReplayRoutes() });
const key = process.env.SWITCHYARD_API_KEY ?? `sk-demo-${randomBytes(12).toString('hex')}`;
const config = (port: number) =>
  gatewayConfigSchema.parse({
    server: { host: '127.0.0.1', port },
    keys: [key],
    providers: { openai: { adapter: 'openai', api_key: 'sk-not-a-real-upstream-key', base_url: `${upstream.url}/v1` } },
    models: [
      { id: 'gpt-4o-mini', provider: 'openai', upstream: 'gpt-4.1-nano', price: { input: 0.1, output: 0.4 } },
      { id: 'text-embedding-3-small', provider: 'openai' },
      { id: 'whisper-1', provider: 'openai' },
      { id: 'tts-1', provider: 'openai' },
      { id: 'dall-e-3', provider: 'openai' },
    ],
    log: { level: values.once ? 'warn' : 'info' },
  });
const logger = pino({ level: values.once ? 'warn' : 'info' });
let running: RunningServer;
try {
  running = await startServer(config(Number(values.port)), { logger });
} catch (error) {
  if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
  running = await startServer(config(0), { logger });
}

console.log(`\nSwitchyard demo: gateway ${running.url} in front of a mock upstream ${upstream.url}`);
console.log('The upstream REPLAYS RECORDED OpenAI responses (packages/testkit/fixtures/openai); no real provider is called.\n');
const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });

const completion = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Invent a new holiday.' }] });
line('chat', `${clip(completion.choices[0]?.message.content ?? '')} [${completion.choices[0]?.finish_reason}, ${completion.usage?.total_tokens} tokens]`);
const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Again, streamed.' }], stream: true });
let chunks = 0;
let streamed = '';
for await (const chunk of stream) {
  chunks++;
  streamed += chunk.choices[0]?.delta?.content ?? '';
}
line('chat (stream)', `${chunks} chunks: ${clip(streamed)}`);
const models: string[] = [];
for await (const model of client.models.list()) models.push(model.id);
line('models', models.join(', '));
const embeddings = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['sunny day', 'rainy day'] });
line('embeddings', `${embeddings.data.length} vectors of ${embeddings.data[0]?.embedding.length} dims: [${embeddings.data[0]?.embedding.map((x) => x.toFixed(4)).join(', ')}]`);
const transcription = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(makeWav(), 'tone.wav', { type: 'audio/wav' }) });
line('transcription', clip(transcription.text));
const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello from Switchyard', response_format: 'wav' });
const speechFile = join(await mkdtemp(join(tmpdir(), 'switchyard-demo-')), 'speech.wav');
await writeFile(speechFile, Buffer.from(await speech.arrayBuffer()));
line('speech', `${speech.headers.get('content-type')} written to ${speechFile}`);
const image = await client.images.generate({ model: 'dall-e-3', prompt: 'A baby sea otter', size: '1024x1024', response_format: 'b64_json' });
line('image', `${image.data?.length} image(s), b64_json ${image.data?.[0]?.b64_json?.length} chars; revised prompt: ${clip(image.data?.[0]?.revised_prompt ?? '', 60)}`);

if (values.once) {
  await running.close();
  await upstream.close();
} else {
  console.log(`\nThe gateway keeps running. Try:\n  curl ${running.url}/chat/completions -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" \\\n    -d '{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Hello"}]}'`);
  console.log(`\nBase URL: ${running.url}\nAPI key:  ${key}\nPress Ctrl-C to stop.`);
  process.once('SIGINT', () => process.exit(0));
}
