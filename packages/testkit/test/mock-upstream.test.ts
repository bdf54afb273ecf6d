import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { type MockUpstream, sseFrames, startMockUpstream } from '../src/index.js';

let upstream: MockUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

describe('startMockUpstream', () => {
  it('replays a JSON reply and records the request', async () => {
    upstream = await startMockUpstream({ routes: { 'POST /v1/chat/completions': { json: { ok: true } } } });
    const res = await request(`${upstream.url}/v1/chat/completions?x=1`, {
      method: 'POST',
      body: '{"model":"m"}',
      headers: { authorization: 'Bearer k' },
    });
    expect(res.statusCode).toBe(200);
    expect(await res.body.json()).toEqual({ ok: true });
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      query: { x: '1' },
      json: { model: 'm' },
    });
    expect(upstream.requests[0]?.headers.authorization).toBe('Bearer k');
  });

  it('matches wildcards and plays sequences, the last reply repeating', async () => {
    upstream = await startMockUpstream();
    upstream.route('POST /v1beta/models/*:generateContent', [{ status: 500, json: { e: 1 } }, { json: { e: 0 } }]);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(`${upstream.url}/v1beta/models/gemini-pro:generateContent`, {
        method: 'POST',
        body: '{}',
      });
      await res.body.dump();
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([500, 200, 200]);
  });

  it('answers unknown routes with 404 in OpenAI error shape', async () => {
    upstream = await startMockUpstream();
    const res = await request(`${upstream.url}/nope`);
    expect(res.statusCode).toBe(404);
    expect(await res.body.json()).toMatchObject({ error: { message: expect.stringContaining('no route') } });
  });

  it('streams SSE frames as separate writes', async () => {
    upstream = await startMockUpstream({
      routes: { 'POST /s': { chunks: sseFrames(['{"a":1}', '{"a":2}']), chunkDelayMs: 5 } },
    });
    const res = await request(`${upstream.url}/s`, { method: 'POST', body: '' });
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(await res.body.text()).toBe('data: {"a":1}\n\ndata: {"a":2}\n\ndata: [DONE]\n\n');
  });

  it('resets connections on request', async () => {
    upstream = await startMockUpstream({ routes: { 'GET /r': { reset: true } } });
    await expect(request(`${upstream.url}/r`)).rejects.toThrow();
  });

  it('breaks a stream off after some chunks', async () => {
    upstream = await startMockUpstream({ routes: { 'GET /b': { chunks: ['a', 'b', 'c'], resetAfterChunks: 1 } } });
    const res = await request(`${upstream.url}/b`);
    await expect(res.body.text()).rejects.toThrow();
  });

  it('marks requests the client abandoned', async () => {
    const mock = await startMockUpstream({ routes: { 'GET /h': { hang: true } } });
    upstream = mock;
    const controller = new AbortController();
    const pending = request(`${mock.url}/h`, { signal: controller.signal });
    await expect.poll(() => mock.requests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => mock.requests[0]?.closedByClient).toBe(true);
  });
});
