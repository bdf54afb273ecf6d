import { testkitFixtures } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPSTREAM_KEY, type TestGateway, startTestGateway } from './helpers/test-gateway.js';
import { recordedOpenAIStreamText as recordedStreamText } from './helpers/recorded-openai.js';

const fixtures = testkitFixtures();
const recorded = fixtures.json<{
  choices: { message: { content: string } }[];
  usage: { prompt_tokens: number; completion_tokens: number };
}>('openai/openai-text.json');

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('chat completions through the official openai SDK', () => {
  it('answers a single turn with the recorded completion, routed to the upstream model with the upstream key', async () => {
    const completion = await gw.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Invent a new holiday and describe its traditions.' }],
      temperature: 0.3,
      user: 'user-42',
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]?.message.content).toBe(recorded.choices[0]?.message.content);
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage?.total_tokens).toBe(recorded.usage.prompt_tokens + recorded.usage.completion_tokens);
    const sent = gw.upstream.requestsTo('POST /v1/chat/completions').at(-1)!;
    expect(sent.json).toMatchObject({ model: 'gpt-4.1-nano', temperature: 0.3, user: 'user-42' });
    expect(sent.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
  });

  it('forwards the whole history of a multi-turn conversation', async () => {
    const messages = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: 'Name a holiday.' },
      { role: 'assistant' as const, content: 'Galaxy Day.' },
      { role: 'user' as const, content: 'Describe it.' },
    ];
    const completion = await gw.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      stop: ['\n\n', 'END'],
    });
    expect(completion.choices).toHaveLength(1);
    expect(gw.upstream.requestsTo('POST /v1/chat/completions').at(-1)!.json).toMatchObject({
      messages,
      stop: ['\n\n', 'END'],
    });
  });

  it('returns n = 2 choices', async () => {
    const completion = await gw.client.chat.completions.create({
      model: 'gpt-4o-mini',
      n: 2,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(gw.upstream.requestsTo('POST /v1/chat/completions').at(-1)!.json).toMatchObject({ n: 2 });
  });

  it('streams chunks whose assembled text equals the recording, then ends', async () => {
    const stream = await gw.client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Invent a new holiday.' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null | undefined;
    let usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | undefined;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe(recordedStreamText);
    expect(text.length).toBeGreaterThan(100);
    expect(finish).toBe('stop');
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    expect(gw.upstream.requestsTo('POST /v1/chat/completions').at(-1)!.json).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends the SSE wire format: data events then [DONE]', async () => {
    const res = await fetch(`${gw.running.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.client.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await res.text();
    const events = body.split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(events.slice(0, -1).every((e) => e.startsWith('data: {'))).toBe(true);
  });

  it('logs one line per request with model, provider, status and latency, and no keys', async () => {
    await gw.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'log me' }] });
    const line = gw.logs
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .findLast((l) => l.model === 'gpt-4o-mini');
    expect(line).toMatchObject({
      provider: 'openai',
      status: 200,
      method: 'POST',
      path: '/v1/chat/completions',
      request_id: expect.any(String),
    });
    expect(typeof line?.latency_ms).toBe('number');
    const all = gw.logs.join('\n');
    expect(all).not.toContain(UPSTREAM_KEY);
    expect(all).not.toContain(gw.client.apiKey);
  });
});
