import { sseFrames } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsGateway, completion, startAccountsGateway } from './accounts-gateway.js';

// Attack (issue #22): budgets and tpm were checked before a call and charged after it, so 30 parallel calls on a $1
// budget spent $48 and `tpm_limit: 100` admitted 50 parallel calls. Admission now reserves the estimated tokens and
// cost (prompt estimate + max_tokens, times n) and settles after. Documented tolerance: a budget may be passed by
// the last admitted call's estimate plus what calls in flight use beyond their estimates; tpm only by the latter.
const MAX_TOKENS = 1000;
const PROMPT_TOKENS = 8; // what the upstream reports for the prompt below (the gateway estimates 5: 18 chars / 4)
const PRICE = { input: 0, output: 100 }; // USD per million tokens: one call costs $0.10
const CALL_COST = (MAX_TOKENS * PRICE.output) / 1e6;

const ANSWER = { json: completion('gpt-4o', PROMPT_TOKENS, MAX_TOKENS) };
let gw: AccountsGateway;
beforeAll(async () => {
  gw = await startAccountsGateway(
    ANSWER,
    `
models:
  - { id: gpt-4o, provider: openai, price: { input: ${PRICE.input}, output: ${PRICE.output} } }
  - { id: slow-stream, provider: openai, upstream: slow-stream, price: { input: 1000, output: 1000 } }
`,
  );
});
afterAll(() => gw?.close());

/**
 * Runs `count` calls in parallel with the upstream's answers held until every call has either been refused or reached
 * the upstream, so that all admitted calls are in flight together (ordered by events, not by a delay).
 */
async function burst<T>(count: number, call: () => Promise<T>): Promise<PromiseSettledResult<T>[]> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  gw.upstream.route('POST /v1/chat/completions', async () => {
    await released;
    return ANSWER;
  });
  try {
    const before = gw.upstream.requests.length;
    let refused = 0;
    const calls = Array.from({ length: count }, () =>
      call().catch((error: unknown) => {
        refused++;
        throw error;
      }),
    );
    const settled = Promise.allSettled(calls);
    await expect.poll(() => refused + gw.upstream.requests.length - before, { timeout: 10_000 }).toBe(count);
    release();
    return await settled;
  } finally {
    release();
    gw.upstream.route('POST /v1/chat/completions', ANSWER);
  }
}

const ask = (client: OpenAI) =>
  client.chat.completions.create({
    model: 'gpt-4o',
    max_tokens: MAX_TOKENS,
    messages: [{ role: 'user', content: 'Tell me a story.' }],
  });

describe('security: reservations under 30 parallel calls', () => {
  it('holds a $1 budget within one call of tolerance', async () => {
    const { id, key } = await gw.createKey({ name: 'one-dollar', budget_usd: 1 });
    const results = await burst(30, () => ask(gw.client(key)));
    const admitted = results.filter((r) => r.status === 'fulfilled').length;
    expect(admitted).toBe(10);
    expect(
      results
        .filter((r) => r.status === 'rejected')
        .every((r) => (r as PromiseRejectedResult).reason.code === 'insufficient_quota'),
    ).toBe(true);
    await expect.poll(() => gw.usageByStatus(id)).toMatchObject({ '200': { requests: 10 }, '429': { requests: 20 } });
    expect((await gw.usageByStatus(id))['200']!.cost_usd).toBeLessThanOrEqual(1 + CALL_COST);
  });

  it('holds tpm within the prompt-estimate tolerance', async () => {
    const TPM = 5000;
    const { id, key } = await gw.createKey({ name: 'tpm', tpm_limit: TPM });
    const started = Date.now();
    const results = await burst(30, () => ask(gw.client(key)));
    const refilled = Math.ceil(((Date.now() - started) * TPM) / 60_000); // the bucket refills while the burst runs
    const admitted = results.filter((r) => r.status === 'fulfilled').length;
    expect(admitted).toBeGreaterThanOrEqual(1);
    const rejected = results
      .filter((r): r is PromiseRejectedResult => r.status === 'rejected')
      .map((r) => r.reason as InstanceType<typeof OpenAI.APIError>);
    expect(rejected.length).toBe(30 - admitted);
    expect(rejected.every((e) => e.status === 429 && e.code === 'rate_limit_exceeded')).toBe(true);
    expect(rejected[0]!.headers?.get('x-ratelimit-limit-tokens')).toBe(String(TPM));
    // Tolerance: the prompt estimate's error (3 tokens a call here) for the calls in flight together.
    const used = admitted * (PROMPT_TOKENS + MAX_TOKENS);
    expect(used).toBeLessThanOrEqual(TPM + refilled + admitted * 3);
    await expect.poll(async () => (await gw.usageByStatus(id))['200']?.completion_tokens).toBe(admitted * MAX_TOKENS);
  });

  it('reserves completion tokens for each of n choices', async () => {
    const { key } = await gw.createKey({ name: 'tpm-n', tpm_limit: 5000 });
    const many = (n: number) =>
      gw.client(key).chat.completions.create({
        model: 'gpt-4o',
        n,
        max_tokens: MAX_TOKENS,
        messages: [{ role: 'user', content: 'hi' }],
      });
    // Each call reserves 3 x 1,000 completion tokens: the second one in flight does not fit in 5,000.
    const results = await burst(2, () => many(3));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: { status: 429, code: 'rate_limit_exceeded' },
    });
  });

  it('does not refill a key’s buckets when it is changed (PATCH)', async () => {
    const { id, key } = await gw.createKey({ name: 'rpm', rpm_limit: 3 });
    for (let i = 0; i < 3; i++) await ask(gw.client(key));
    await expect(ask(gw.client(key))).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect((await gw.admin('PATCH', `/keys/${id}`, { name: 'rpm-renamed', rpm_limit: 4 })).status).toBe(200);
    await expect(ask(gw.client(key))).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
  });

  it('books a stream the client cut with status 499 and the tokens it streamed (estimated)', async () => {
    const frame = (content: string) =>
      JSON.stringify({
        id: 'c',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'slow-stream',
        choices: [{ index: 0, delta: { content }, finish_reason: null }],
      });
    // Every chunk after the third waits until the client has cut the stream.
    let cut!: () => void;
    const wasCut = new Promise<void>((resolve) => (cut = resolve));
    gw.upstream.route('POST /v1/chat/completions', {
      chunks: sseFrames([frame('Once upon a time'), ...Array(50).fill(frame(' and then'))]),
      beforeChunk: (index) => (index >= 3 ? wasCut : undefined),
    });
    try {
      const { id, key } = await gw.createKey({ name: 'aborter' });
      const controller = new AbortController();
      const stream = await gw
        .client(key)
        .chat.completions.create(
          { model: 'slow-stream', stream: true, messages: [{ role: 'user', content: 'Tell me a story.' }] },
          { signal: controller.signal },
        );
      let chunks = 0;
      try {
        for await (const _chunk of stream) if (++chunks === 3) controller.abort();
      } catch {
        // the SDK may throw or end quietly on abort
      }
      expect(chunks).toBeLessThan(10);
      // The upstream holds its 4th chunk until the booking is seen: releasing it at once raced the gateway's notice of
      // the cut (on a loaded machine the rest of the stream could be written before the socket's close was handled).
      // The tokenizer loads on first use: allow for a slow machine.
      await expect
        .poll(async () => (await gw.usageByStatus(id))['499'], { timeout: 15_000 })
        .toMatchObject({ requests: 1, prompt_tokens: expect.any(Number), completion_tokens: expect.any(Number) });
      const booked = (await gw.usageByStatus(id))['499']!;
      expect(booked.completion_tokens).toBeGreaterThan(0);
      expect(booked.cost_usd).toBeGreaterThan(0);
      expect((await gw.usageByStatus(id))['200']).toBeUndefined();
    } finally {
      cut();
      gw.upstream.route('POST /v1/chat/completions', ANSWER);
    }
  });

  it('books a call the client abandoned before the answer with status 499 and its prompt estimate', async () => {
    gw.upstream.route('POST /v1/chat/completions', { hang: true });
    try {
      const { id, key } = await gw.createKey({ name: 'abandoner' });
      const controller = new AbortController();
      const before = gw.upstream.requests.length;
      const call = gw
        .client(key)
        .chat.completions.create(
          { model: 'slow-stream', messages: [{ role: 'user', content: 'Tell me a story.' }] },
          { signal: controller.signal },
        );
      await expect.poll(() => gw.upstream.requests.length).toBe(before + 1);
      controller.abort();
      await expect(call).rejects.toThrow();
      await expect
        .poll(async () => gw.usageByStatus(id), { timeout: 10_000 })
        .toMatchObject({ '499': { requests: 1, prompt_tokens: 4, completion_tokens: 0 } });
    } finally {
      gw.upstream.route('POST /v1/chat/completions', ANSWER);
    }
  });
});
