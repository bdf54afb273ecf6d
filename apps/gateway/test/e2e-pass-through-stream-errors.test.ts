import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, sseFrames, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { type RunningServer, startServer } from '../src/start-server.js';
import { createAdminKey } from './helpers/admin-keys.js';

// Issue #22: a native pass-through stream (Anthropic Messages, OpenAI Responses) whose upstream reports a failure
// inside the stream (after its HTTP 200) was booked as a success (200). It is passed on to the client as it is, and
// booked with the status the failure implies (else 502), like a chat stream's mid-stream error.
const MASTER = 'sk-master-pass-through-errors-0123456789';
const fixtures = testkitFixtures();
const anthropicLines = fixtures.chunkLines('anthropic/anthropic-text.chunks.txt');
const responsesLines = fixtures.chunkLines('openai/spec-examples/createresponse-streaming.chunks.txt');
const typed = (payloads: readonly unknown[]) =>
  sseFrames(
    payloads.map((p) => (typeof p === 'string' ? p : JSON.stringify(p))),
    'typed',
  );

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;
/** The gateway's log lines, parsed. */
const logs: { level: number; path?: string; status?: number; err?: { message: string } }[] = [];

beforeAll(async () => {
  upstream = await startMockUpstream();
  const yaml = `
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${upstream.url}" }
  native: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${upstream.url}/v1", responses: native }
models:
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
  - { id: gpt-native, provider: native, upstream: gpt-5.4 }
routing: { max_retries: 0 }
`;
  const logger = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line)) });
  running = await startServer(parseConfig(yaml, 'test.yaml', {}), { logger });
  origin = running.url.replace(/\/v1$/, '');
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

const newKey = (name: string) => createAdminKey(origin, MASTER, { name });
/** The key's ledger rows (`GET /admin/requests`), newest first. */
async function rows(keyId: string): Promise<{ status: number; model: string; provider: string }[]> {
  const res = await fetch(`${origin}/admin/requests?key=${keyId}`, { headers: { authorization: `Bearer ${MASTER}` } });
  return ((await res.json()) as { data: { status: number; model: string; provider: string }[] }).data;
}
/** Iterates an SDK stream to its end; what it threw, or undefined. */
async function drain(stream: AsyncIterable<{ type: string }>, seen: string[]): Promise<unknown> {
  try {
    for await (const event of stream) seen.push(event.type);
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('Anthropic Messages pass-through: an error event inside the stream', () => {
  it.each([
    ['overloaded_error', 503],
    ['rate_limit_error', 429],
    ['some_new_error', 502],
  ])('is passed on to the client and booked as a failure (%s -> %i), not 200', async (type, status) => {
    const { id, key } = await newKey(`anthropic-${type}`);
    upstream.route('POST /v1/messages', {
      chunks: typed([anthropicLines[0]!, { type: 'error', error: { type, message: 'Overloaded' } }]),
    });
    const client = new Anthropic({ baseURL: origin, apiKey: key, maxRetries: 0 });
    const seen: string[] = [];
    const failure = await drain(
      await client.messages.create({
        model: 'claude',
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
      seen,
    );
    expect(seen).toEqual(['message_start']);
    expect(failure).toBeInstanceOf(Anthropic.APIError);
    expect((failure as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      type: 'error',
      error: { type, message: 'Overloaded' },
    });
    await expect
      .poll(() => rows(id))
      .toEqual([expect.objectContaining({ status, model: 'claude', provider: 'anthropic' })]);
    // The request log line is an error naming the upstream's failure, as for a chat stream that fails.
    await expect
      .poll(() => logs.findLast((l) => l.path === '/v1/messages'))
      .toMatchObject({ level: 50, status: 200, err: { message: 'Overloaded' } });
  });

  it('books a stream that ends normally as 200', async () => {
    const { id, key } = await newKey('anthropic-ok');
    upstream.route('POST /v1/messages', { chunks: typed(anthropicLines) });
    const client = new Anthropic({ baseURL: origin, apiKey: key, maxRetries: 0 });
    const seen: string[] = [];
    expect(
      await drain(
        await client.messages.create({
          model: 'claude',
          max_tokens: 64,
          stream: true,
          messages: [{ role: 'user', content: 'Hi' }],
        }),
        seen,
      ),
    ).toBeUndefined();
    expect(seen.at(-1)).toBe('message_stop');
    await expect.poll(() => rows(id)).toEqual([expect.objectContaining({ status: 200 })]);
    expect(logs.findLast((l) => l.path === '/v1/messages')).toMatchObject({ level: 30, status: 200 });
  });
});

describe('OpenAI Responses pass-through: a failure inside the stream', () => {
  const created = responsesLines[0]!;
  const failedResponse = (code: string) => {
    const response = {
      ...(JSON.parse(created) as { response: Record<string, unknown> }).response,
      status: 'failed',
      error: { code, message: 'The model failed.' },
    };
    return { type: 'response.failed', sequence_number: 1, response };
  };

  it.each([
    ['server_error', 500],
    ['rate_limit_exceeded', 429],
    ['something_new', 502],
  ])('an error event (%s) is passed on and booked with status %i', async (code, status) => {
    const { id, key } = await newKey(`responses-error-${code}`);
    upstream.route('POST /v1/responses', {
      chunks: typed([created, { type: 'error', code, message: 'The model failed.', param: null, sequence_number: 1 }]),
    });
    const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
    const seen: string[] = [];
    const failure = await drain(
      await client.responses.create({ model: 'gpt-native', input: 'Hi', stream: true }),
      seen,
    );
    expect(seen).toEqual(['response.created']);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('The model failed.');
    await expect
      .poll(() => rows(id))
      .toEqual([expect.objectContaining({ status, model: 'gpt-native', provider: 'native' })]);
    await expect
      .poll(() => logs.findLast((l) => l.path === '/v1/responses'))
      .toMatchObject({ level: 50, err: { message: 'The model failed.' } });
  });

  it('a response.failed event is passed on and booked with the status its error code implies', async () => {
    const { id, key } = await newKey('responses-failed');
    upstream.route('POST /v1/responses', { chunks: typed([created, failedResponse('server_error')]) });
    const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
    const seen: string[] = [];
    expect(
      await drain(await client.responses.create({ model: 'gpt-native', input: 'Hi', stream: true }), seen),
    ).toBeUndefined();
    expect(seen).toEqual(['response.created', 'response.failed']);
    await expect.poll(() => rows(id)).toEqual([expect.objectContaining({ status: 500 })]);
  });

  it('books a stream that completes as 200', async () => {
    const { id, key } = await newKey('responses-ok');
    upstream.route('POST /v1/responses', { chunks: sseFrames(responsesLines, 'typed') });
    const client = new OpenAI({ baseURL: running.url, apiKey: key, maxRetries: 0 });
    const seen: string[] = [];
    expect(
      await drain(await client.responses.create({ model: 'gpt-native', input: 'Hi', stream: true }), seen),
    ).toBeUndefined();
    expect(seen.at(-1)).toBe('response.completed');
    await expect.poll(() => rows(id)).toEqual([expect.objectContaining({ status: 200 })]);
  });
});
