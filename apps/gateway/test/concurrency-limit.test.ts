import { type MockReply, sseFrames } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsGateway, completion, startAccountsGateway } from './security/accounts-gateway.js';

// A virtual key's `concurrency_limit` in one gateway process (the in-process limiter): calls in flight beyond it get
// 429 `concurrency_limit_exceeded`, and a slot is given back when its call ends: answered, streamed to the end, or
// aborted by the client. (Across processes, on Redis: replica-processes.test.ts.)
type ApiError = InstanceType<typeof OpenAI.APIError>;

/** Upstream calls whose prompt is `hold` wait until the test opens the gate. */
let openGate!: () => void;
let gate: Promise<void>;
const closeGate = () => {
  gate = new Promise<void>((resolve) => (openGate = resolve));
};
closeGate();

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({
    id: 'c',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const streamFrames = sseFrames([
  chunk({ role: 'assistant', content: 'Once' }),
  chunk({ content: ' upon' }),
  chunk({}, 'stop'),
]);

let gw: AccountsGateway;
beforeAll(async () => {
  gw = await startAccountsGateway(async (request): Promise<MockReply> => {
    const body = request.json as { stream?: boolean; messages: { content: string }[] };
    const prompt = body.messages[0]?.content;
    if (prompt === 'hold') await gate;
    // `slow stream`: the first chunk at once, the rest only after a minute (or when the client goes away).
    if (body.stream) return { chunks: streamFrames, chunkDelayMs: prompt === 'slow stream' ? 60_000 : 0 };
    return { json: completion('gpt-4o', 8, 2) };
  }, 'models:\n  - { id: gpt-4o, provider: openai }\n');
});
afterAll(() => gw?.close());

const ask = (key: string, content = 'hi') =>
  gw.client(key).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content }] });
const statusOf = (key: string) =>
  ask(key).then(
    () => 200,
    (e: ApiError) => e.status,
  );
const rateLimited = async (kind: string) => {
  const text = await (await fetch(`${gw.running.url.replace(/\/v1$/, '')}/metrics`)).text();
  return Number(new RegExp(`^switchyard_rate_limited_total\\{kind="${kind}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
};

describe('concurrency_limit of a virtual key (one process)', () => {
  it('admits 2 of 6 calls in flight together, refuses the rest with 429 concurrency_limit_exceeded, counted in /metrics', async () => {
    const { id, key } = await gw.createKey({ name: 'two-at-a-time', concurrency_limit: 2 });
    expect((await gw.admin('GET', `/keys/${id}`)).body).toMatchObject({ concurrency_limit: 2 });
    const before = await rateLimited('concurrency');
    const held = gw.upstream.requests.length;
    const settled: PromiseSettledResult<unknown>[] = [];
    const calls = Array.from({ length: 6 }, () =>
      ask(key, 'hold').then(
        (value) => void settled.push({ status: 'fulfilled', value }),
        (reason) => void settled.push({ status: 'rejected', reason }),
      ),
    );
    // Four are refused while two wait upstream; none is answered before the gate opens.
    await expect.poll(() => settled.length, { timeout: 5000 }).toBe(4);
    expect(gw.upstream.requests.length - held).toBe(2);
    const refused = settled.map((r) => (r as PromiseRejectedResult).reason as ApiError);
    expect(
      refused.every((e) => e.status === 429 && e.code === 'concurrency_limit_exceeded' && e.type === 'requests'),
    ).toBe(true);
    expect(refused[0]!.message).toMatch(/allows 2 at a time/);
    expect(refused[0]!.headers?.get('retry-after')).toBe('1');
    openGate();
    await Promise.all(calls);
    expect(settled.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    closeGate();
    expect((await rateLimited('concurrency')) - before).toBe(4);
    // A slot is free before its answer reaches the client: calls one after another never collide.
    for (let i = 0; i < 5; i++) expect(await statusOf(key)).toBe(200);
  });

  it('a stream holds its slot until it ends; a stream the client aborts gives it back', async () => {
    const { key } = await gw.createKey({ name: 'one-stream', concurrency_limit: 1 });
    const client = gw.client(key);
    // A stream read to its end frees the slot.
    let text = '';
    for await (const part of await client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'story' }],
    }))
      text += part.choices[0]?.delta.content ?? '';
    expect(text).toBe('Once upon');
    expect(await statusOf(key)).toBe(200);
    // A stream still running holds it.
    const slow = await client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'slow stream' }],
    });
    const iterator = slow[Symbol.asyncIterator]();
    expect((await iterator.next()).value?.choices[0]?.delta.content).toBe('Once');
    await expect(ask(key)).rejects.toMatchObject({ status: 429, code: 'concurrency_limit_exceeded' });
    // The client goes away mid-stream: the gateway ends the call and releases the slot.
    slow.controller.abort();
    await expect.poll(() => statusOf(key), { timeout: 5000, interval: 50 }).toBe(200);
  });

  it('rejects a concurrency_limit that is not a positive integer, naming it', async () => {
    const { status, body } = await gw.admin('POST', '/keys', { name: 'bad', concurrency_limit: 0 });
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('concurrency_limit');
  });
});
