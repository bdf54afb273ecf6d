import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsGateway, completion, startAccountsGateway } from './security/accounts-gateway.js';

// Budget alerts over real HTTP: a local webhook receiver that fails its first two deliveries; the gateway posts one
// signed event per threshold crossed (80 %, 100 %) of a key's, team's and session's budget, retried with backoff.
const SECRET = 'whsec-test-0123456789abcdef';
// 1,000 prompt + 1,000 completion tokens at 1 + 2 USD per million: 0.003 USD a call.
const CALL_USD = 0.003;

interface Delivery {
  body: string;
  signature: string | undefined;
  eventId: string | undefined;
  at: number;
  /** The status the receiver answered. */
  status: number;
}
const deliveries: Delivery[] = [];
let failuresLeft = 2;
let receiver: Server;
let gw: AccountsGateway;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const status = failuresLeft-- > 0 ? 500 : 204;
      deliveries.push({
        body,
        signature: req.headers['x-switchyard-signature'] as string | undefined,
        eventId: req.headers['x-switchyard-event-id'] as string | undefined,
        at: Date.now(),
        status,
      });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as AddressInfo).port;
  gw = await startAccountsGateway(
    async () => ({ json: completion('gpt-4o', 1000, 1000) }),
    `models:
  - { id: gpt-4o, provider: openai, price: { input: 1, output: 2 } }
alerts: { webhook_url: "http://127.0.0.1:${port}/hooks/budget", secret: "${SECRET}" }
`,
  );
});
afterAll(async () => {
  await gw?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

const ask = (key: string, headers: Record<string, string> = {}) =>
  gw
    .client(key)
    .chat.completions.create(
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 1000 },
      { headers },
    );
const delivered = () => {
  const ok = new Map<string, Record<string, unknown>>();
  for (const d of deliveries)
    if (d.status === 204) ok.set(d.eventId ?? '', JSON.parse(d.body) as Record<string, unknown>);
  return [...ok.values()];
};

describe('budget alerts', () => {
  it('posts one signed event per threshold crossed by a key, its team and a session; failed deliveries are retried', async () => {
    const team = (
      await gw.admin('POST', '/teams', { name: 'alerted', budget_usd: 10 * CALL_USD, session_budget_usd: 2 * CALL_USD })
    ).body.id as string;
    const { id, key } = await gw.createKey({
      name: 'alerted key',
      team_id: team,
      budget_usd: 5 * CALL_USD,
      budget_period: 'month',
    });
    const started = Date.now();
    // Calls 1-3: 60 % of the key's budget, no alert. Call 4: 80 %. Call 5: 100 %, then refused.
    for (let i = 0; i < 3; i++) await ask(key);
    await ask(key, { 'x-claude-code-session-id': 'run-1' }); // the session's 50 %
    expect(Date.now() - started).toBeLessThan(5_000);
    await ask(key, { 'x-claude-code-session-id': 'run-1' }); // the session's 100 % (and its 80 %)
    await expect(ask(key)).rejects.toMatchObject({ status: 429, code: 'insufficient_quota' });
    const expected = [
      { subject: 'key', id, threshold: 0.8 },
      { subject: 'key', id, threshold: 1 },
      { subject: 'session', id: 'run-1', threshold: 0.8 },
      { subject: 'session', id: 'run-1', threshold: 1 },
    ];
    await expect.poll(() => delivered().length, { timeout: 10_000, interval: 100 }).toBe(4);
    const events = delivered();
    for (const want of expected)
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'budget.threshold_crossed', ...want, key_id: id, team_id: team }),
      );
    const keyFull = events.find((e) => e.subject === 'key' && e.threshold === 1)!;
    expect(keyFull.budget_usd).toBeCloseTo(5 * CALL_USD, 12);
    expect(keyFull.spend_usd as number).toBeCloseTo(5 * CALL_USD, 12);
    // The team (10 calls' budget, 5 spent) crossed nothing: no event names it.
    expect(events.some((e) => e.subject === 'team')).toBe(false);
    // Every delivery is signed: HMAC-SHA256 of the exact body under the secret.
    for (const d of deliveries)
      expect(d.signature).toBe(`sha256=${createHmac('sha256', SECRET).update(d.body).digest('hex')}`);
    // Two deliveries failed (500) and were retried: 6 posts for 4 events, the retries after a backoff.
    expect(deliveries).toHaveLength(6);
    const firstId = deliveries[0]!.eventId;
    const retry = deliveries.find((d, i) => i > 0 && d.eventId === firstId)!;
    expect(retry.at - deliveries[0]!.at).toBeGreaterThanOrEqual(400);
    // The team's 80 %: three more calls of another key of the team cross 8 of 10 calls' budget.
    const other = await gw.createKey({ name: 'second', team_id: team });
    for (let i = 0; i < 3; i++) await ask(other.key);
    await expect
      .poll(
        () =>
          delivered()
            .filter((e) => e.subject === 'team')
            .map((e) => [e.id, e.threshold]),
        { timeout: 10_000, interval: 100 },
      )
      .toEqual([[team, 0.8]]);
  });
});
