import { isTokenizerWarm } from '@switchyard/accounts';
import { sseFrames } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsGateway, startAccountsGateway } from './accounts-gateway.js';

// Issue #38 (closing figures): the first stream whose upstream sent no usage waited 2.2-2.7 s for a cold tokenizer
// worker (loading gpt-tokenizer's o200k_base in the worker thread) before its ledger row was written. The pool is now
// warmed when accounts open, in the background: startup and /readyz do not wait for it, and once it is warm the first
// usage-less stream is booked as promptly as any other.
const PROMPT = 'Tell me about the weather in Lisbon today, briefly.';
/** o200k_base tokens of {@link PROMPT} (checked against gpt-tokenizer when this test was written). */
const PROMPT_TOKENS = 11;
/** Most ms from a stream's end to its ledger row once the worker is warm (a cold worker took 2,200-2,700 ms alone). */
const MAX_BOOKING_MS = 1_500;

let gw: AccountsGateway;
let startMs = 0;
let readyzStatus = 0;
let warmAtReadyz = false;
beforeAll(async () => {
  const started = performance.now();
  gw = await startAccountsGateway(
    { json: {} },
    'models:\n  - { id: gpt-4o-mini, provider: openai, price: { input: 1, output: 2 } }\n',
  );
  startMs = performance.now() - started;
  let warm = false;
  void isTokenizerWarm().then((ready) => (warm = ready));
  readyzStatus = (await fetch(`${gw.running.url.replace(/\/v1$/, '')}/readyz`)).status;
  warmAtReadyz = warm;
});
afterAll(() => gw?.close());

describe('security: the tokenizer pool is warm before the first usage-less stream', { timeout: 60_000 }, () => {
  it('startup and /readyz do not wait for the tokenizer; the first usage-less stream is booked promptly and exactly', async () => {
    expect(readyzStatus).toBe(200);
    const warmStarted = performance.now();
    // Waits for the workers the gateway's startup began loading (it starts none itself: false if none was started).
    expect(await isTokenizerWarm()).toBe(true);
    const warmWaitMs = performance.now() - warmStarted;
    const { id, key } = await gw.createKey({ name: 'first-streamer' });
    const chunk = (content: string) =>
      JSON.stringify({
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, delta: { content }, finish_reason: null }],
      });
    gw.upstream.route('POST /v1/chat/completions', {
      headers: { 'content-type': 'text/event-stream' },
      chunks: sseFrames([chunk('Sunny'), chunk(', 24 C.')]),
    });
    const stream = await gw
      .client(key)
      .chat.completions.create({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: PROMPT }] });
    let answer = '';
    for await (const part of stream) answer += part.choices[0]?.delta.content ?? '';
    const ended = performance.now();
    await expect.poll(() => gw.usageByStatus(id), { timeout: 10_000, interval: 20 }).toHaveProperty('200');
    const bookingMs = performance.now() - ended;
    const usage = (await gw.usageByStatus(id))['200']!;
    console.log(
      `warm start: gateway started in ${startMs.toFixed(0)} ms, /readyz 200 with the tokenizer ${warmAtReadyz ? 'warm' : 'still loading'}, warm-up done ${warmWaitMs.toFixed(0)} ms later; first usage-less stream booked ${bookingMs.toFixed(0)} ms after its end (${usage.prompt_tokens} prompt tokens)`,
    );
    expect(answer).toBe('Sunny, 24 C.');
    expect(usage.prompt_tokens).toBe(PROMPT_TOKENS);
    expect(bookingMs).toBeLessThan(MAX_BOOKING_MS);
  });
});
