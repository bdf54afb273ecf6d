import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { type MockUpstream, sseFrames, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

const KEY = 'sk-switchyard-tracing-0123456789';
const CHAT = 'POST /v1/chat/completions';
const recorded = testkitFixtures().json<{ model: string; usage: { prompt_tokens: number; completion_tokens: number } }>(
  'openai/openai-text.json',
);
const PROMPT = 'a prompt that must not reach the traces';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}

/** A loopback OTLP/HTTP (JSON) receiver: keeps every span posted to /v1/traces. */
async function startReceiver() {
  const spans: OtlpSpan[] = [];
  const contentTypes: string[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    let body = Buffer.concat(parts);
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    contentTypes.push(String(req.headers['content-type']));
    if (req.method === 'POST' && req.url === '/v1/traces') {
      const payload = JSON.parse(body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
      for (const resource of payload.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Attribute values of a span as plain values. */
function attrs(span: OtlpSpan): Record<string, unknown> {
  const plain = (value: Record<string, unknown>): unknown => {
    if ('stringValue' in value) return value.stringValue;
    if ('intValue' in value) return Number(value.intValue);
    if ('boolValue' in value) return value.boolValue;
    if ('doubleValue' in value) return value.doubleValue;
    if ('arrayValue' in value)
      return ((value.arrayValue as { values?: Record<string, unknown>[] }).values ?? []).map(plain);
    return value;
  };
  return Object.fromEntries(span.attributes.map((a) => [a.key, plain(a.value)]));
}

let upstream: MockUpstream | undefined;
let running: RunningServer | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterEach(async () => {
  await running?.close();
  await upstream?.close();
  await receiver?.close();
  running = upstream = receiver = undefined;
});

async function start(captureContent: boolean) {
  receiver = await startReceiver();
  upstream = await startMockUpstream();
  upstream.route(CHAT, [
    { status: 503, json: { error: { message: 'busy', type: 'server_error', param: null, code: null } } },
    { json: recorded },
  ]);
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
telemetry: { otlp_endpoint: "${receiver.url}", service_name: switchyard-test, capture_content: ${captureContent} }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: chat, provider: openai, upstream: gpt-4.1-nano }
routing: { max_retries: 1, backoff: { base_ms: 1, max_ms: 2 } }
`);
  return new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
}

describe('OpenTelemetry traces over OTLP/HTTP', () => {
  it('exports a server span continuing the incoming traceparent and a client span per attempt, and sends traceparent upstream', async () => {
    const client = await start(false);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    await client.chat.completions.create(
      { model: 'chat', messages: [{ role: 'user', content: PROMPT }] },
      { headers: { traceparent: `00-${traceId}-${parentId}-01` } },
    );
    await running!.close(); // flushes the batch
    running = undefined;

    const spans = receiver!.spans;
    expect(receiver!.contentTypes[0]).toContain('application/json');
    const server = spans.find((s) => s.kind === 2);
    const clients = spans
      .filter((s) => s.kind === 3)
      .sort((a, b) => Number(attrs(a)['switchyard.attempt']) - Number(attrs(b)['switchyard.attempt']));
    expect(server).toBeDefined();
    expect(server!.traceId).toBe(traceId);
    expect(server!.parentSpanId).toBe(parentId);
    expect(server!.name).toBe('POST /v1/chat/completions');
    expect(attrs(server!)).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'chat',
      'gen_ai.response.model': recorded.model,
      'gen_ai.usage.input_tokens': recorded.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': recorded.usage.completion_tokens,
      'gen_ai.response.finish_reasons': ['stop'],
      'switchyard.attempt': 2,
      'switchyard.fallback': false,
      'http.response.status_code': 200,
    });

    expect(clients).toHaveLength(2);
    for (const [index, span] of clients.entries()) {
      expect(span.traceId).toBe(traceId);
      expect(span.parentSpanId).toBe(server!.spanId);
      expect(span.name).toBe('chat gpt-4.1-nano');
      expect(attrs(span)).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.request.model': 'gpt-4.1-nano',
        'switchyard.attempt': index + 1,
        'switchyard.fallback': false,
      });
    }
    expect(clients[0]!.status?.code).toBe(2); // ERROR: the 503
    expect(attrs(clients[0]!)).toMatchObject({ 'error.type': '503', 'switchyard.outcome': 'retry' });
    expect(attrs(clients[1]!)).toMatchObject({
      'gen_ai.usage.output_tokens': recorded.usage.completion_tokens,
      'switchyard.outcome': 'ok',
    });

    // Each upstream request carried the traceparent of its own client span.
    const sent = upstream!.requestsTo(CHAT).map((r) => r.headers.traceparent);
    expect(sent).toEqual(clients.map((c) => `00-${traceId}-${c.spanId}-01`));
    // No prompt or completion text without capture_content.
    expect(JSON.stringify(spans)).not.toContain(PROMPT);
    expect(JSON.stringify(spans)).not.toContain('gen_ai.input.messages');
  });

  it('starts a new trace without traceparent, and records content only with capture_content: true', async () => {
    const client = await start(true);
    await client.chat.completions.create({ model: 'chat', messages: [{ role: 'user', content: PROMPT }] });
    await running!.close();
    running = undefined;
    const spans = receiver!.spans;
    const server = spans.find((s) => s.kind === 2)!;
    expect(server.parentSpanId ?? '').toBe('');
    const ok = spans.find((s) => s.kind === 3 && attrs(s)['switchyard.outcome'] === 'ok')!;
    expect(String(attrs(ok)['gen_ai.input.messages'])).toContain(PROMPT);
    expect(String(attrs(ok)['gen_ai.output.messages'])).toContain('assistant');
  });
});

describe('OpenTelemetry traces of a stream', () => {
  it('end when the stream has ended, with its usage and finish reasons', async () => {
    const client = await start(false);
    upstream!.route(CHAT, { chunks: sseFrames(testkitFixtures().chunkLines('openai/openai-text.chunks.txt')) });
    const stream = await client.chat.completions.create({
      model: 'chat',
      stream: true,
      messages: [{ role: 'user', content: PROMPT }],
    });
    for await (const _chunk of stream);
    await running!.close();
    running = undefined;
    const server = receiver!.spans.find((s) => s.kind === 2)!;
    expect(attrs(server)).toMatchObject({
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.response.model': 'gpt-4.1-nano',
      'switchyard.attempt': 1,
    });
    expect(attrs(server)['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    const client_ = receiver!.spans.find((s) => s.kind === 3)!;
    expect(attrs(client_)).toMatchObject({ 'gen_ai.response.finish_reasons': ['stop'], 'switchyard.outcome': 'ok' });
    expect(JSON.stringify(receiver!.spans)).not.toContain(PROMPT);
  });
});

describe('without an OTLP endpoint', () => {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const hook = fileURLToPath(new URL('./fixtures/report-otel-imports.mjs', import.meta.url));

  /** Starts the CLI until it listens, stops it, and returns its stderr. */
  async function run(env: Record<string, string>) {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-otel-'));
    const config = join(dir, 'switchyard.yaml');
    await writeFile(
      config,
      `server: { port: 0 }\nkeys: ["${KEY}"]\nproviders: { openai: { adapter: openai, api_key: sk-x-000000 } }\nlog: { level: warn }\n`,
    );
    const child = spawn(process.execPath, ['--import', hook, cli, 'start', '--config', config], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    try {
      await expect.poll(() => stderr, { timeout: 10_000 }).toContain('listening on');
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
      await rm(dir, { recursive: true, force: true });
    }
    return stderr;
  }

  it('does not load the OpenTelemetry SDK at all; with OTEL_EXPORTER_OTLP_ENDPOINT it does', async () => {
    // (prom-client loads the tiny @opentelemetry/api package for exemplars; the SDK and exporter are what must stay out.)
    expect(await run({})).not.toMatch(/otel-import @opentelemetry\/(sdk|exporter|resources|core|otlp)/);
    expect(await run({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toContain(
      'otel-import @opentelemetry/sdk-trace',
    );
  });
});
