import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_KEY, type TestGateway, startTestGateway } from '../helpers/test-gateway.js';

// Attack (issue #22): `model: "<provider>/<megabytes>"` was kept forever in routing state, written to the ledger and
// the log; CR/LF and non-Latin-1 characters in `model` gave 500 and were sent upstream.
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const post = (path: string, body: unknown) =>
  fetch(`${gw.running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('security: bounded model ids', () => {
  it('answers 400 naming model for a 1 MB model name, without logging or routing it', async () => {
    const huge = `openai/${'x'.repeat(1024 * 1024)}`;
    gw.upstream.clear();
    const logsBefore = gw.logs.length;
    for (const path of ['/chat/completions', '/embeddings', '/images/generations', '/audio/speech']) {
      const res = await post(path, {
        model: huge,
        messages: [{ role: 'user', content: 'hi' }],
        input: 'hi',
        prompt: 'p',
        voice: 'alloy',
      });
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as { error: { param: string; code: string; message: string } };
      expect(body.error).toMatchObject({ param: 'model', code: 'invalid_model_id' });
      expect(body.error.message.length).toBeLessThan(300);
    }
    const retrieve = await fetch(`${gw.running.url}/models/openai/${'y'.repeat(4000)}`, {
      headers: { authorization: `Bearer ${GATEWAY_KEY}` },
    });
    expect(retrieve.status).toBe(400);
    expect(gw.upstream.requests).toHaveLength(0);
    await expect.poll(() => gw.logs.length).toBeGreaterThanOrEqual(logsBefore + 5);
    for (const line of gw.logs.slice(logsBefore)) expect(line.length).toBeLessThan(4_000);
    // Nothing was keyed on the ids: the routing state holds no plan or health entry for them.
    expect(gw.running.gateway.health.inFlight(huge.slice(0, 300))).toBe(0);
  });

  it.each([
    ['CR/LF', 'gpt-4o-mini\r\nx-injected: 1'],
    ['a space', 'gpt 4o'],
    ['non-Latin-1', 'openai/gpt-4o-мини'],
    ['Latin-1 but not ASCII', 'openai/gpt-4o-é'],
    ['a NUL byte', 'openai/gpt\u0000'],
  ])('answers 400 naming model for %s in the model id, and sends nothing upstream', async (_name, model) => {
    gw.upstream.clear();
    const res = await post('/chat/completions', { model, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('model');
    expect(gw.upstream.requests).toHaveLength(0);
  });

  it('still serves ordinary provider model ids with / : @ . characters', async () => {
    gw.upstream.clear();
    const res = await post('/chat/completions', {
      model: 'openai/gpt-4.1-nano:2025@v1',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.status).toBe(200);
    expect((gw.upstream.requests[0]!.json as { model: string }).model).toBe('gpt-4.1-nano:2025@v1');
  });
});
