import { setTimeout as sleep } from 'node:timers/promises';
import { type MockUpstream, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// Queue instead of failing (issue #18): max_concurrency per deployment, routing.queue_ms.
const KEY = 'sk-switchyard-queue-0123456789';
const CHAT = 'POST /v1/chat/completions';
const completion = testkitFixtures().json<{ choices: { message: { content: string } }[] }>('openai/openai-text.json');

let upstream: MockUpstream;
let active = 0;
let peak = 0;
/** While set, `capped` calls wait for it after their 150 ms (so a test decides when the slots free up). */
let hold: Promise<void> | undefined;
/** The `cooling` deployment's next answer: a 500 (opens its breaker: one failure is enough) or a completion. */
let coolingFails = false;
/** The queue of the `queued` gateway. */
const QUEUE_MS = 2_000;
/** The breaker's cooldown of the gateway without a queue: long, so that "tried at once" cannot be a wait for its end. */
const UNQUEUED_COOLDOWN_S = 30;
const yamlFor = (queueMs: number, cooldownSeconds = 0.5) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  slow: { adapter: openai, api_key: sk-slow-000000, base_url: "${upstream.url}/v1" }
models:
  - { id: capped, targets: [{ provider: slow, upstream: gpt-4.1-nano, max_concurrency: 2 }] }
  - { id: cooling, provider: slow, upstream: cooling-model, max_retries: 0 }
routing: { queue_ms: ${queueMs}, cooldown: { failures: 1, seconds: ${cooldownSeconds} } }
log: { level: silent }
`;
let queued: RunningServer;
let unqueued: RunningServer;

beforeAll(async () => {
  // Each upstream call takes 150 ms; `active` counts calls the upstream is still answering.
  upstream = await startMockUpstream({
    routes: {
      [CHAT]: async (request) => {
        if ((request.json as { model?: string }).model === 'cooling-model') {
          return coolingFails
            ? { status: 500, json: { error: { message: 'boom', type: 'server_error', param: null, code: null } } }
            : { json: completion };
        }
        active++;
        peak = Math.max(peak, active);
        await sleep(150);
        await hold;
        active--;
        return { json: completion };
      },
    },
  });
  queued = await startGatewayFromYaml(yamlFor(QUEUE_MS));
  unqueued = await startGatewayFromYaml(yamlFor(0, UNQUEUED_COOLDOWN_S));
});
beforeEach(() => {
  upstream.clear();
  peak = 0;
});
afterAll(async () => {
  await queued?.close();
  await unqueued?.close();
  await upstream?.close();
});

/** Six concurrent `capped` calls; `onRejected` runs as each one fails. */
const six = (server: RunningServer, onRejected: () => void = () => {}) => {
  const client = new OpenAI({ baseURL: server.url, apiKey: KEY, maxRetries: 0, timeout: 5000 });
  return Promise.allSettled(
    Array.from({ length: 6 }, () =>
      client.chat.completions
        .create({ model: 'capped', messages: [{ role: 'user', content: 'hi' }] })
        .catch((error: unknown) => {
          onRejected();
          throw error;
        }),
    ),
  );
};

describe('queue instead of failing', () => {
  it('cap 2, 6 concurrent requests, queue 2 s: all 6 served, never more than 2 at once upstream', async () => {
    const results = await six(queued);
    expect(results.map((r) => r.status)).toEqual(Array(6).fill('fulfilled'));
    expect(upstream.requestsTo(CHAT)).toHaveLength(6);
    expect(peak).toBe(2);
  });

  it('queue_ms 0 (the default): requests over the cap get 429 deployments_at_capacity at once', async () => {
    // The two calls that got a slot keep it until the other four are answered, or 1 s after the sixth reached the
    // gateway (so that a gateway that queued them would serve them and fail the test): on a loaded machine the 150 ms
    // of an upstream call could otherwise end, freeing its slot, before the last of the six reached the gateway.
    let release = () => {};
    hold = new Promise((resolve) => (release = resolve));
    let received = 0;
    let backstop: NodeJS.Timeout | undefined;
    const onRequest = () => {
      if (++received === 6) backstop = setTimeout(() => release(), 1_000);
    };
    unqueued.server.on('request', onRequest);
    let rejections = 0;
    const results = await six(unqueued, () => ++rejections === 4 && release()).finally(() => {
      unqueued.server.off('request', onRequest);
      clearTimeout(backstop);
      release();
      hold = undefined;
    });
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(fulfilled).toHaveLength(2);
    expect(rejected).toHaveLength(4);
    for (const r of rejected) {
      expect(r.reason).toBeInstanceOf(OpenAI.RateLimitError);
      expect((r.reason as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
        code: 'deployments_at_capacity',
      });
    }
    expect(peak).toBeLessThanOrEqual(2);
  });
});

describe('queue while every deployment is cooling down', () => {
  const coolDown = async (server: RunningServer) => {
    const client = new OpenAI({ baseURL: server.url, apiKey: KEY, maxRetries: 0, timeout: 5000 });
    coolingFails = true;
    await expect(
      client.chat.completions.create({ model: 'cooling', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 500 });
    coolingFails = false;
    return client;
  };
  const coolingCalls = () =>
    upstream.requestsTo(CHAT).filter((r) => (r.json as { model?: string }).model === 'cooling-model');

  it('queue 2 s: a request waits for the cooldown to end instead of hitting the cooling deployment, then is served', async () => {
    const client = await coolDown(queued);
    const started = Date.now();
    const pending = client.chat.completions.create({ model: 'cooling', messages: [{ role: 'user', content: 'hi' }] });
    // While the breaker is open the deployment gets no request.
    await sleep(150);
    expect(coolingCalls()).toHaveLength(1);
    const answer = await pending;
    expect(answer.choices[0]?.message.content).toBe(completion.choices[0]?.message.content);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(coolingCalls()).toHaveLength(2);
  });

  it('queue_ms 0: the cooling deployment is tried at once, as without a queue', async () => {
    const client = await coolDown(unqueued);
    const started = Date.now();
    await client.chat.completions.create({ model: 'cooling', messages: [{ role: 'user', content: 'hi' }] });
    // Served while the breaker stays open for another 30 s, and sooner than a queue of 2 s would have let it wait.
    // (With a 0.5 s cooldown and a 450 ms bound, one round trip on a loaded machine was enough to fail.)
    expect(Date.now() - started).toBeLessThan(QUEUE_MS);
    expect(coolingCalls()).toHaveLength(2);
  });
});
