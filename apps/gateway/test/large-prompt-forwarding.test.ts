import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJsonText, startTestGateway, type TestGateway } from './helpers/test-gateway.js';

// A large prompt's messages go upstream as the client's own text (issue #34, head-of-line): what the upstream reads
// is what the gateway parsed and checked, whatever the spelling; a text that could be read otherwise is serialised.
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const post = (body: string, path?: string) => postJsonText(gw, body, path);
const lastUpstreamBody = () => gw.upstream.requestsTo('POST /v1/chat/completions').at(-1)!;
const prompt = 'lorem ipsum '.repeat(10_000);

describe('large prompts: messages forwarded as sent', () => {
  it('sends the messages text of a 120 KB ASCII body as the client wrote it, the other fields as before', async () => {
    const messages = `[ {"role":"system","content":"Be brief.\\u0021"},\n  {"role":"user","content":${JSON.stringify(prompt)}, "name":"a"} ]`;
    const body = `{"model":"gpt-4o-mini","temperature":0.5,"messages":${messages},"max_tokens":20,"user":"u1"}`;
    const res = await post(body);
    expect(res.status).toBe(200);
    const sent = lastUpstreamBody();
    expect(sent.bodyText).toContain(`"messages":${messages}`);
    const json = sent.json as Record<string, unknown>;
    expect(json).toMatchObject({ temperature: 0.5, max_tokens: 20, user: 'u1' });
    expect(json.messages).toEqual(JSON.parse(messages));
    expect(Object.keys(json).slice(0, 4)).toEqual(['model', 'temperature', 'messages', 'max_tokens']);
  });

  it('sends the messages text of a streamed 120 KB ASCII body as the client wrote it, and streams the answer', async () => {
    const messages = `[{"role":"user","content":${JSON.stringify(prompt)}}]`;
    const res = await post(`{"model":"gpt-4o-mini","stream":true,"messages":${messages}}`);
    expect(res.status).toBe(200);
    const events = await res.text();
    expect(events).toContain('data: [DONE]');
    const sent = lastUpstreamBody();
    expect(sent.bodyText).toBe(
      `{"model":"gpt-4.1-nano","stream":true,"messages":${messages},"stream_options":{"include_usage":true}}`,
    );
  });

  it('sends the messages of a non-ASCII body as parsed', async () => {
    const messages = [{ role: 'user', content: `${prompt} é ✓ 😀` }];
    const res = await post(JSON.stringify({ model: 'gpt-4o-mini', messages }));
    expect(res.status).toBe(200);
    expect((lastUpstreamBody().json as { messages: unknown }).messages).toEqual(messages);
  });

  it('sends the messages text of a non-ASCII body as the client wrote it, with text before and after it', async () => {
    const messages = `[ {"role":"user","content":${JSON.stringify(`${prompt} é ✓ 😀`)}} , {"role":"user","content":"\u00e9 ✓"} ]`;
    const body = `{"model":"gpt-4o-mini","metadata":{"note":"ü ✓ 😀"},"messages":${messages},"user":"😀 ü"}`;
    const res = await post(body);
    expect(res.status).toBe(200);
    const sent = lastUpstreamBody();
    expect(sent.bodyText).toContain(`"messages":${messages}`);
    expect(sent.json).toMatchObject({ metadata: { note: 'ü ✓ 😀' }, user: '😀 ü', messages: JSON.parse(messages) });
  });

  it('serialises messages again when a message repeats a key, so the upstream reads what was checked', async () => {
    const body = `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"first","content":${JSON.stringify(prompt)}}]}`;
    const res = await post(body);
    expect(res.status).toBe(200);
    const sent = lastUpstreamBody();
    expect(sent.bodyText).not.toContain('"first"');
    expect((sent.json as { messages: unknown }).messages).toEqual([{ role: 'user', content: prompt }]);
  });

  it('reads a large prompt as the client wrote it where the gateway translates it (Anthropic Messages in)', async () => {
    const content = [{ type: 'text', text: `${prompt} [brackets], {braces} 'quotes'` }];
    const body = JSON.stringify({ model: 'gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content }] });
    const res = await post(body, '/messages');
    expect(res.status).toBe(200);
    const sent = lastUpstreamBody().json as { messages: { role: string; content: unknown }[] };
    const text = (c: unknown) => (typeof c === 'string' ? c : (c as { text: string }[]).map((p) => p.text).join(''));
    expect(sent.messages.map((m) => text(m.content))).toEqual([content[0]!.text]);
  });

  it('refuses a large prompt with a raw control character in a string with the 400 invalid_json', async () => {
    const body = (end: string) => `{"model":"gpt-4o-mini","messages":[{"role":"user","content":"${prompt}${end}"}]}`;
    expect((await post(body('\\u0001'))).status).toBe(200);
    const bad = await post(body('\u0001'));
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });
});
