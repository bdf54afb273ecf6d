import { type MockReply, sseFrames } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_KEY, type TestGateway, UPSTREAM_KEY, startTestGateway } from '../helpers/test-gateway.js';

// Attack (issue #22): an upstream that echoes the gateway's upstream key in `param`, `code` or `type` (JSON error or
// mid-stream error event) leaked it whole; an echo minus its last character passed; cutting a non-JSON body at 200
// characters split and leaked a key prefix. Nothing a client or the log sees may hold 12 consecutive characters of it.
const CHAT = 'POST /v1/chat/completions';
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ extraYaml: 'routing: { max_retries: 0 }\n' });
});
afterAll(async () => {
  await gw?.close();
});

function leaks(text: string): string | undefined {
  for (let i = 0; i + 12 <= UPSTREAM_KEY.length; i++) {
    const piece = UPSTREAM_KEY.slice(i, i + 12);
    if (text.includes(piece)) return piece;
  }
  return undefined;
}

async function call(stream: boolean): Promise<{ status: number; text: string; headers: string }> {
  const res = await fetch(`${gw.running.url}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content: 'hi' }] }),
  });
  return { status: res.status, text: await res.text(), headers: JSON.stringify([...res.headers]) };
}

const echo = (field: string, value: string) => ({
  error: { message: 'bad', type: 'invalid_request_error', param: null, code: null, [field]: value },
});
const jsonErrors: [string, MockReply][] = [
  ['param', { status: 400, json: echo('param', UPSTREAM_KEY) }],
  ['code', { status: 400, json: echo('code', `key_${UPSTREAM_KEY}`) }],
  ['type', { status: 400, json: echo('type', UPSTREAM_KEY) }],
  [
    'message, minus the last character',
    { status: 400, json: echo('message', `Incorrect key ${UPSTREAM_KEY.slice(0, -1)}`) },
  ],
  [
    'message, minus the first three characters',
    { status: 429, json: echo('message', `key ...${UPSTREAM_KEY.slice(3)} is rate limited`) },
  ],
  [
    'a non-JSON body cut at 200 characters',
    { status: 500, headers: { 'content-type': 'text/plain' }, body: `${'x'.repeat(185)} key=${UPSTREAM_KEY} more` },
  ],
];

describe('security: the upstream key never leaks through an error', () => {
  it.each(jsonErrors)('JSON error echoing the key in %s', async (_name, reply) => {
    gw.upstream.route(CHAT, reply);
    const logsBefore = gw.logs.length;
    const { status, text, headers } = await call(false);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(leaks(text), text).toBeUndefined();
    expect(leaks(headers)).toBeUndefined();
    await new Promise((r) => setImmediate(r));
    expect(leaks(gw.logs.slice(logsBefore).join('\n'))).toBeUndefined();
  });

  it.each(['param', 'code', 'type', 'message'])('mid-stream error event echoing the key in %s', async (field) => {
    const event = JSON.stringify(echo(field, `${UPSTREAM_KEY.slice(0, -1)}`));
    const first =
      '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi"},"finish_reason":null}]}';
    gw.upstream.route(CHAT, { chunks: sseFrames([first, event]) });
    const { status, text } = await call(true);
    expect(status).toBe(200);
    expect(text).toContain('"error"');
    expect(leaks(text), text).toBeUndefined();
  });

  it.each([401, 403])(
    'answers 502 naming the provider when the upstream answers %i (its key was refused)',
    async (upstreamStatus) => {
      gw.upstream.clear();
      gw.upstream.route(CHAT, {
        status: upstreamStatus,
        json: echo('message', `Incorrect API key provided: ${UPSTREAM_KEY}`),
      });
      const { status, text } = await call(false);
      expect(status).toBe(502);
      const body = JSON.parse(text) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('upstream_auth_failed');
      expect(body.error.message).toContain("provider 'openai'");
      expect(leaks(text)).toBeUndefined();
      expect(gw.upstream.requestsTo(CHAT)).toHaveLength(1);
    },
  );
});
