import type { ChatCompletionChunk } from '@switchyard/core';
import { sseFrames } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { KEY, callContext, drain, fixtures, useMockUpstream } from './helpers/openai-test-upstream.js';

const ROUTE = 'POST /openai/v1/chat/completions';
const { upstream, adapter } = useMockUpstream();
const ask = (extra: Record<string, unknown> = {}) =>
  adapter().chatCompletions!(
    { model: 'llama-3.3-70b-versatile', messages: [{ role: 'user', content: 'x' }], ...extra },
    callContext(),
  );
const askStream = async (extra: Record<string, unknown> = {}) =>
  (await ask({ stream: true, ...extra })) as AsyncIterable<ChatCompletionChunk>;

describe('chat completions over an OpenAI-compatible upstream', () => {
  it('forwards the request unchanged (unknown fields too) with auth, organization, project, extra headers and the request id', async () => {
    upstream().route(ROUTE, { json: fixtures.json('openai/openai-text.json') });
    const request = {
      model: 'm',
      messages: [{ role: 'user' as const, content: 'x' }],
      reasoning_effort: 'low' as const,
      some_future_param: [1],
    };
    await adapter({ organization: 'org-1', project: 'proj-1', headers: { 'x-extra': 'yes' } }).chatCompletions!(
      request,
      callContext(),
    );
    const sent = upstream().requests[0]!;
    expect(sent.json).toEqual(request);
    expect(sent.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'openai-organization': 'org-1',
      'openai-project': 'proj-1',
      'x-extra': 'yes',
      'x-request-id': 'req-42',
    });
  });

  it('returns the completion as the upstream sent it', async () => {
    const recorded = fixtures.json('openai/openai-text.json');
    upstream().route(ROUTE, { json: recorded });
    expect(await ask()).toEqual(recorded);
  });

  it('sends no authorization header without an api key (local servers)', async () => {
    upstream().route(ROUTE, { json: fixtures.json('openai/openai-text.json') });
    await adapter({ apiKey: undefined }).chatCompletions!(
      { model: 'm', messages: [{ role: 'user', content: 'x' }] },
      callContext(),
    );
    expect(upstream().requests[0]!.headers.authorization).toBeUndefined();
  });

  it("yields a recorded Groq stream chunk for chunk, with Groq's own fields and usage on the finish chunk", async () => {
    const lines = fixtures.chunkLines('openai/groq-text.chunks.txt');
    upstream().route(ROUTE, { chunks: sseFrames(lines) });
    const chunks = await drain(await askStream());
    expect(chunks).toEqual(lines.map((line) => JSON.parse(line)));
    expect(chunks.at(-1)).toMatchObject({
      choices: [{ finish_reason: 'stop' }],
      x_groq: { usage: { total_tokens: 707 } },
      usage: { prompt_tokens: 45, completion_tokens: 662, total_tokens: 707 },
    });
  });

  it('yields each chunk as it arrives, before the upstream has finished', async () => {
    const lines = fixtures.chunkLines('openai/openai-text.chunks.txt').slice(0, 2);
    // The upstream holds every write after the first until the test has seen the first chunk (or, for a buffering
    // adapter that would never yield it, until a safety timer lets the stream finish so that the test fails instead
    // of hanging).
    let firstSeen!: () => void;
    const seen = new Promise<void>((resolve) => (firstSeen = resolve));
    const safety = setTimeout(firstSeen, 3_000);
    let laterWrites = 0;
    upstream().route(ROUTE, {
      chunks: sseFrames(lines),
      beforeChunk: async (index) => {
        if (index === 0) return;
        await seen;
        laterWrites++;
      },
    });
    const writesBefore: number[] = [];
    for await (const _chunk of await askStream()) {
      writesBefore.push(laterWrites);
      firstSeen();
    }
    clearTimeout(safety);
    // The first chunk arrived while the upstream still held its other writes.
    expect(writesBefore).toHaveLength(2);
    expect(writesBefore[0]).toBe(0);
  });

  it('answers 502 when a stream was asked for but the upstream sent JSON', async () => {
    upstream().route(ROUTE, { json: fixtures.json('openai/openai-text.json') });
    await expect(askStream()).rejects.toMatchObject({
      status: 502,
      code: 'upstream_invalid_response',
      message: expect.stringContaining('application/json'),
    });
  });

  it('throws 502 when a stream ends before [DONE] without a finish_reason', async () => {
    const lines = fixtures.chunkLines('openai/openai-text.chunks.txt').slice(0, 5);
    upstream().route(ROUTE, { chunks: lines.map((l) => `data: ${l}\n\n`) });
    await expect(drain(await askStream())).rejects.toMatchObject({ status: 502, code: 'upstream_invalid_response' });
  });

  it('throws the error of a mid-stream error event after the chunks before it, with the key redacted', async () => {
    const [first] = fixtures.chunkLines('openai/openai-text.chunks.txt');
    const errorEvent = JSON.stringify({
      error: { message: `The server had an error (key ${KEY})`, type: 'server_error', param: null, code: null },
    });
    upstream().route(ROUTE, { chunks: [`data: ${first}\n\n`, `data: ${errorEvent}\n\n`] });
    const seen: ChatCompletionChunk[] = [];
    const error = await (async () => {
      for await (const chunk of await askStream()) seen.push(chunk);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 502,
      type: 'server_error',
      message: 'The server had an error (key [REDACTED])',
    });
    expect(seen).toHaveLength(1);
  });
});

describe('chat errors', () => {
  it('keeps the status and OpenAI error body and copies retry-after', async () => {
    upstream().route(ROUTE, {
      status: 429,
      headers: { 'retry-after': '7' },
      json: fixtures.json('openai/openai-error.1.json'),
    });
    const error = await ask().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, headers: { 'retry-after': '7' } });
    expect((error as { toJSON(): unknown }).toJSON()).toEqual(fixtures.json('openai/openai-error.1.json'));
  });

  it('maps 529 (overloaded) to 503', async () => {
    upstream().route(ROUTE, {
      status: 529,
      json: { error: { message: 'Overloaded', type: 'server_error', param: null, code: null } },
    });
    await expect(ask()).rejects.toMatchObject({ status: 503, message: 'Overloaded' });
  });

  it('gives a message naming the status for a non-JSON error body, and redacts an echoed key', async () => {
    upstream().route(ROUTE, {
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: `<html>Bad Gateway for ${KEY}</html>`,
    });
    const error = (await ask().catch((e: unknown) => e)) as Error & { status: number };
    expect(error.status).toBe(502);
    expect(error.message).toContain('HTTP 502');
    expect(error.message).not.toContain(KEY);
  });
});
