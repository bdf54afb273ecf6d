import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type GatewayAnswer,
  expectInvalidResponse,
  expectStreamFailure,
  jsonReply,
  postJson,
  useScriptedUpstream,
} from '../helpers/malformed-upstream.js';
import { MASTER } from './accounts-gateway.js';

// Attack (issue #38 item 7): upstream bodies were trusted by cast. An Azure chat answer with garbage where the gateway
// reads (`null`, `id: 0`, a negative `prompt_tokens`) reached the client, was metered from whatever `prompt_tokens`
// held, or became a 500 (TypeError); Google stream events and Cohere answers likewise. A compromised, buggy or spoofed
// upstream (or a proxy in between) must get a 502 `upstream_invalid_response` naming the provider, a stream error
// event after the first byte, and no ledger tokens or cost made up from what it sent.
const fixtures = testkitFixtures();
const gateway = useScriptedUpstream(
  (url) => `
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  az: { adapter: azure, api_key: azure-resource-key-0123456789abcdef, base_url: "${url}" }
  gem: { adapter: google, api_key: AIza-security-secret-000000, base_url: "${url}/v1beta" }
  co: { adapter: cohere, api_key: co-security-secret-000000, base_url: "${url}" }
models:
  - { id: azure-chat, provider: az, upstream: my-deployment, price: { input: 1, output: 2 } }
  - { id: azure-embed, provider: az, upstream: my-embedding, price: { input: 1, output: 0 } }
  - { id: gemini, provider: gem, upstream: gemini-3-pro-preview, price: { input: 1, output: 2 } }
  - { id: command, provider: co, upstream: command-a-03-2025, price: { input: 1, output: 2 } }
routing: { max_retries: 0 }
`,
);

/** Creates a virtual key; returns its id and secret. */
async function createKey(name: string): Promise<{ id: string; key: string }> {
  const response = await fetch(`${gateway.origin}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  return (await response.json()) as { id: string; key: string };
}

// One key for the answers refused whole, one for the stream that broke after its first event.
let answers: { id: string; key: string };
let streams: { id: string; key: string };
beforeAll(async () => {
  answers = await createKey('malformed-answers');
  streams = await createKey('malformed-streams');
});

const azureChat = fixtures.json('azure/azure-chat.json') as Record<string, unknown>;
const chat = (model: string, stream = false): Promise<GatewayAnswer> =>
  postJson(`${gateway.url}/chat/completions`, (stream ? streams : answers).key, {
    model,
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  });

/** The key's ledger totals by status. */
async function ledgerByStatus(
  keyId: string,
): Promise<Record<string, { requests: number; prompt_tokens: number; completion_tokens: number; cost_usd: number }>> {
  const response = await fetch(`${gateway.origin}/admin/usage?key=${keyId}&group_by=status`, {
    headers: { authorization: `Bearer ${MASTER}` },
  });
  const groups = (
    (await response.json()) as {
      data: { group: string; requests: number; prompt_tokens: number; completion_tokens: number; cost_usd: number }[];
    }
  ).data;
  return Object.fromEntries(groups.map(({ group, ...totals }) => [group, totals]));
}

describe('upstream answers of the wrong shape (issue #38 item 7)', () => {
  it('Azure chat: null, id 0, choices null or a negative prompt_tokens are each a 502 naming the provider, never a 500 or a 200', async () => {
    const bodies = [
      'null',
      { ...azureChat, id: 0 },
      { ...azureChat, choices: null },
      { ...azureChat, usage: { prompt_tokens: -1_000_000, completion_tokens: 11, total_tokens: -999_989 } },
    ];
    for (const body of bodies) {
      gateway.answer(jsonReply(body));
      const answer = await chat('azure-chat');
      expectInvalidResponse(answer, 'az');
      expect(answer.text).toContain('documented shape');
    }
  });

  it('Azure embeddings with vectors of strings and a fractional token count are a 502', async () => {
    gateway.answer(
      jsonReply({
        object: 'list',
        model: 'm',
        data: [{ object: 'embedding', index: 0, embedding: ['0.1', '0.2'] }],
        usage: { prompt_tokens: 1.5, total_tokens: 1.5 },
      }),
    );
    expectInvalidResponse(
      await postJson(`${gateway.url}/embeddings`, answers.key, {
        model: 'azure-embed',
        input: 'a',
        encoding_format: 'float',
      }),
      'az',
    );
  });

  it('Google: a usage count beyond 2^53 in an answer is a 502, and a stream event of the wrong shape ends the stream with an error event', async () => {
    const text = fixtures.json('google/google-text.json') as { usageMetadata: Record<string, unknown> };
    gateway.answer(jsonReply({ ...text, usageMetadata: { ...text.usageMetadata, promptTokenCount: 1e21 } }));
    expectInvalidResponse(await chat('gemini'), 'gem');

    const events = fixtures.chunkLines('google/google-text.chunks.txt');
    const broken = [
      events[0]!,
      JSON.stringify({ ...(JSON.parse(events[1]!) as object), candidates: 'not a list' }),
      ...events.slice(2),
    ];
    gateway.answer({ chunks: sseFrames(broken, 'gemini') });
    const answer = await chat('gemini', true);
    expect(answer.status).toBe(200); // The first event went out before the broken one arrived.
    expectStreamFailure(answer, 'gem');
    expect(answer.text).toContain('There are **3**'); // What came before the broken event reached the client.
  });

  it('Cohere: a token count sent as a string is a 502, not metered', async () => {
    gateway.answer(
      jsonReply({
        id: 'x',
        finish_reason: 'COMPLETE',
        message: { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
        usage: { billed_units: { input_tokens: '12', output_tokens: 7 } },
      }),
    );
    expectInvalidResponse(await chat('command'), 'co');
  });

  it('books every refused answer with no tokens and no cost, and the broken stream as failed', async () => {
    await expect.poll(async () => (await ledgerByStatus(answers.id))['502']?.requests, { timeout: 5_000 }).toBe(7);
    const ledger = await ledgerByStatus(answers.id);
    expect(ledger).toEqual({
      '502': expect.objectContaining({ requests: 7, prompt_tokens: 0, completion_tokens: 0, cost_usd: 0 }),
    });
    await expect.poll(async () => (await ledgerByStatus(streams.id))['502']?.requests, { timeout: 5_000 }).toBe(1);
    // The broken stream is booked as failed, for what reached the client before the break (the prompt and the text
    // streamed, counted as for any cut stream: 1 + 5 tokens here), never from the broken event's fields.
    const stream = (await ledgerByStatus(streams.id))['502']!;
    expect(stream.prompt_tokens).toBeLessThanOrEqual(9);
    expect(stream.completion_tokens).toBeLessThanOrEqual(5);
    expect(Object.keys(await ledgerByStatus(streams.id))).toEqual(['502']);
  });
});
