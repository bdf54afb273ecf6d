import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJsonText, startTestGateway, type TestGateway } from '../helpers/test-gateway.js';

// Attack (issue #22): a 100,000-deep JSON body answered 500; 450,000 messages blocked the event loop.
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const post = (body: string) => postJsonText(gw, body);

describe('security: JSON nesting and message count', () => {
  it('answers 400 json_too_deep for a 100,000-deep body', async () => {
    const deep = `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"metadata":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const res = await post(deep);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('json_too_deep');
  });

  it('accepts 64 levels and refuses 65 (brackets inside strings do not count)', async () => {
    // The body object is level 1, so `metadata` adds depth - 1 levels.
    const nested = (depth: number) => `${'['.repeat(depth - 1)}"[[[[{{{{"${']'.repeat(depth - 1)}`;
    const ok = await post(
      `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"metadata":${nested(64)}}`,
    );
    expect(ok.status).toBe(200);
    const tooDeep = await post(
      `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"metadata":${nested(65)}}`,
    );
    expect(tooDeep.status).toBe(400);
  });

  it('counts no bracket inside a string, escaped quotes and backslashes included', async () => {
    // The innermost array holds the string `a " [[[[ \` (an escaped quote before the brackets, an escaped backslash
    // before its closing quote), then the deepest array: a scanner that ends the string at the escaped quote counts its
    // brackets and refuses 64 levels, one that takes the closing quote for escaped misses the deepest array and
    // accepts 65.
    const tricky = String.raw`"a \" [[[[ \\"`;
    const nested = (depth: number) => `${'['.repeat(depth - 2)}${tricky},["x"]${']'.repeat(depth - 2)}`;
    // Bodies under 64 KiB and over it (a long prompt) are checked by different scans: both must hold the line.
    for (const content of ['hi', 'lorem ipsum '.repeat(6_000)]) {
      const body = (depth: number) =>
        `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${content}"}],"metadata":${nested(depth)}}`;
      expect((await post(body(64))).status).toBe(200);
      const tooDeep = await post(body(65));
      expect(tooDeep.status).toBe(400);
      expect(((await tooDeep.json()) as { error: { code: string } }).error.code).toBe('json_too_deep');
    }
  });

  it('answers 400 json_too_deep for a 100,000-deep body after a 100 KB prompt, and after a repeated key', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const prompt = JSON.stringify('lorem ipsum '.repeat(9_000));
    for (const body of [
      `{"model":"gpt-4o-mini","messages":[{"role":"user","content":${prompt}}],"metadata":${deep}}`,
      `{"model":"gpt-4o-mini","messages":[{"role":"user","role":"user","content":${prompt}}],"metadata":${deep}}`,
    ]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('json_too_deep');
    }
  });

  it('answers a 400 KB prompt, and 400 invalid_json for it cut short (bodies parsed in slices)', async () => {
    const body = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'lorem ipsum '.repeat(35_000) }],
    });
    const ok = await post(body);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { object: string }).object).toBe('chat.completion');
    const cut = await post(body.slice(0, -2));
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });

  it('answers 400 naming messages above 10,000 messages', async () => {
    gw.upstream.clear();
    const messages = Array.from({ length: 10_001 }, () => ({ role: 'user', content: 'hi' }));
    const res = await post(JSON.stringify({ model: 'gpt-4o-mini', messages }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('messages');
    expect(gw.upstream.requestsTo('POST /v1/chat/completions')).toHaveLength(0);
  });
});
