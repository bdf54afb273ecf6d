import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { useEndpointsGateway } from './helpers/endpoints-gateway.js';

// `POST /v1/completions` (legacy text completions) through the official openai SDK (client.completions.create) over
// real HTTP: OpenAI and Azure get the request as it is; Anthropic and presets without the endpoint get it translated
// through chat, with the parameters chat cannot honour refused with a 400 naming them.
const fixtures = testkitFixtures();
const recorded = fixtures.json<{
  choices: { text: string }[];
  usage: { prompt_tokens: number; completion_tokens: number };
}>('openai/openai-completion-text.json');
const anthropicText = fixtures.json<{ content: { text: string }[] }>('anthropic/anthropic-text.json').content[0]!.text;
const recordedStreamText = fixtures
  .chunkLines('openai/openai-completion-text.chunks.txt')
  .map((line) => (JSON.parse(line) as { choices: { text: string }[] }).choices[0]?.text ?? '')
  .join('');
const anthropicStreamText =
  "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?";

const { gateway, createKey, client, ledgerOf } = useEndpointsGateway(
  `
  - { id: gpt-3.5-turbo-instruct, provider: openai, price: { input: 1.5, output: 2 } }
  - { id: azure-instruct, provider: azure, upstream: my-instruct-deployment }
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929, price: { input: 3, output: 15 } }
  - { id: deepseek-chat, provider: deepseek, upstream: deepseek-chat }
`,
  {
    'POST /openai/deployments/my-instruct-deployment/completions': (request) =>
      (request.json as { stream?: boolean }).stream
        ? { chunks: sseFrames(fixtures.chunkLines('openai/openai-completion-text.chunks.txt')) }
        : { json: fixtures.json('openai/openai-completion-text.json') },
    'POST /v1/messages': (request) =>
      (request.json as { stream?: boolean }).stream
        ? { chunks: sseFrames(fixtures.chunkLines('anthropic/anthropic-text.chunks.txt'), 'typed') }
        : { json: fixtures.json('anthropic/anthropic-text.json') },
    'POST /deepseek/v1/chat/completions': { json: fixtures.json('openai/openai-text.json') },
  },
);
const upstream = () => gateway.upstreams.upstream;

/** Reads a completions stream to its end. */
async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const chunks: T[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('POST /v1/completions passed through', () => {
  it('sends the request to OpenAI as it is and answers its text_completion, metered in the ledger', async () => {
    const { id, key } = await createKey({ name: 'completions' });
    const res = await client(key).completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Invent a new holiday.',
      max_tokens: 16,
      echo: true,
      logprobs: 2,
      suffix: '!',
      best_of: 2,
    });
    expect(res).toMatchObject({
      object: 'text_completion',
      model: 'gpt-3.5-turbo-instruct',
      usage: { prompt_tokens: 14, completion_tokens: 16, total_tokens: 30 },
    });
    expect(res.choices).toEqual([{ ...recorded.choices[0], index: 0 }]);
    const sent = upstream().requestsTo('POST /v1/completions').at(-1)!;
    expect(sent.json).toEqual({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Invent a new holiday.',
      max_tokens: 16,
      echo: true,
      logprobs: 2,
      suffix: '!',
      best_of: 2,
    });
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-openai-0000');
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({
      model: 'gpt-3.5-turbo-instruct',
      provider: 'openai',
      status: 200,
      stream: false,
      prompt_tokens: 14,
      completion_tokens: 16,
    });
    expect(row!.cost_usd).toBeCloseTo((14 * 1.5 + 16 * 2) / 1e6, 12);
  });

  it('streams text_completion chunks, with usage only when the client asked for it, and meters the stream', async () => {
    const { id, key } = await createKey({ name: 'completions-stream' });
    const plain = await collect(
      await client(key).completions.create({
        model: 'gpt-3.5-turbo-instruct',
        prompt: 'Invent a new holiday.',
        stream: true,
      }),
    );
    expect(plain.length).toBeGreaterThan(10);
    expect(
      plain.every(
        (c) =>
          c.object === 'text_completion' &&
          c.model === 'gpt-3.5-turbo-instruct' &&
          c.choices.length === 1 &&
          !('usage' in c),
      ),
    ).toBe(true);
    expect(plain.map((c) => c.choices[0]!.text).join('')).toBe(recordedStreamText);
    expect(plain.at(-1)!.choices[0]!.finish_reason).toBe('length');
    // The gateway asked for usage (to meter the stream) although the client did not.
    expect(
      (upstream().requestsTo('POST /v1/completions').at(-1)!.json as { stream_options?: unknown }).stream_options,
    ).toEqual({ include_usage: true });
    const withUsage = await collect(
      await client(key).completions.create({
        model: 'gpt-3.5-turbo-instruct',
        prompt: 'Invent a new holiday.',
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(withUsage.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 14, completion_tokens: 16, total_tokens: 30 },
    });
    const rows = await ledgerOf(id, 2);
    expect(rows.map((r) => [r.stream, r.status, r.prompt_tokens, r.completion_tokens])).toEqual([
      [true, 200, 14, 16],
      [true, 200, 14, 16],
    ]);
  });

  it('passes through to an Azure deployment, plain and streamed', async () => {
    const { key } = await createKey({ name: 'completions-azure' });
    const res = await client(key).completions.create({ model: 'azure-instruct', prompt: 'Invent a new holiday.' });
    expect(res.choices[0]!.text).toBe(recorded.choices[0]!.text);
    const sent = upstream().requestsTo('POST /openai/deployments/my-instruct-deployment/completions').at(-1)!;
    expect(sent.headers['api-key']).toBe('azure-upstream-0000');
    expect(sent.json).toEqual({ model: 'my-instruct-deployment', prompt: 'Invent a new holiday.' });
    const chunks = await collect(
      await client(key).completions.create({ model: 'azure-instruct', prompt: 'Invent a new holiday.', stream: true }),
    );
    expect(chunks.map((c) => c.choices[0]!.text).join('')).toBe(recordedStreamText);
  });
});

describe('POST /v1/completions translated through chat', () => {
  it('answers a text_completion from Anthropic, the prompt sent as the user message with the legacy default of 16 tokens', async () => {
    const { id, key } = await createKey({ name: 'completions-claude' });
    const res = await client(key).completions.create({
      model: 'claude',
      prompt: 'Say hello.',
      temperature: 0.5,
      stop: ['END'],
    });
    expect(res).toMatchObject({
      object: 'text_completion',
      model: 'claude',
      usage: { prompt_tokens: 12, completion_tokens: 29, total_tokens: 41 },
    });
    expect(res.id).toMatch(/^cmpl-|^msg_/);
    expect(res.choices).toEqual([{ text: anthropicText, index: 0, logprobs: null, finish_reason: 'stop' }]);
    const sent = upstream().requestsTo('POST /v1/messages').at(-1)!.json as Record<string, unknown>;
    expect(sent).toMatchObject({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 16,
      temperature: 0.5,
      stop_sequences: ['END'],
    });
    expect(JSON.stringify(sent.messages)).toContain('Say hello.');
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({
      model: 'claude',
      provider: 'anthropic',
      status: 200,
      prompt_tokens: 12,
      completion_tokens: 29,
    });
    expect(row!.cost_usd).toBeCloseTo((12 * 3 + 29 * 15) / 1e6, 12);
  });

  it('streams the translation as text_completion chunks, with usage when asked', async () => {
    const { id, key } = await createKey({ name: 'completions-claude-stream' });
    const chunks = await collect(
      await client(key).completions.create({
        model: 'claude',
        prompt: 'Say hello.',
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const texts = chunks.filter((c) => c.choices.length > 0);
    expect(
      texts.every((c) => c.object === 'text_completion' && c.model === 'claude' && c.choices[0]!.logprobs === null),
    ).toBe(true);
    expect(texts.map((c) => c.choices[0]!.text).join('')).toBe(anthropicStreamText);
    expect(texts.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 30, total_tokens: 42 },
    });
    expect((upstream().requestsTo('POST /v1/messages').at(-1)!.json as { max_tokens: number }).max_tokens).toBe(64);
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({ stream: true, status: 200, prompt_tokens: 12, completion_tokens: 30 });
  });

  it('answers an array of prompts with one choice per prompt, usage summed', async () => {
    const { key } = await createKey({ name: 'completions-prompts' });
    const res = await client(key).completions.create({ model: 'claude', prompt: ['Say hello.', 'Say hi.'] });
    expect(res.choices.map((c) => [c.index, c.text])).toEqual([
      [0, anthropicText],
      [1, anthropicText],
    ]);
    expect(res.usage).toEqual({ prompt_tokens: 24, completion_tokens: 58, total_tokens: 82 });
    const sent = upstream()
      .requestsTo('POST /v1/messages')
      .map((r) => JSON.stringify((r.json as { messages: unknown }).messages));
    expect(sent.some((m) => m.includes('Say hello.'))).toBe(true);
    expect(sent.some((m) => m.includes('Say hi.'))).toBe(true);
  });

  it('translates through a preset that serves chat only (DeepSeek)', async () => {
    const { key } = await createKey({ name: 'completions-deepseek' });
    const res = await client(key).completions.create({
      model: 'deepseek-chat',
      prompt: 'Invent a new holiday.',
      max_tokens: 400,
    });
    expect(res.choices[0]!.text).toBe(
      fixtures.json<{ choices: { message: { content: string } }[] }>('openai/openai-text.json').choices[0]!.message
        .content,
    );
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(upstream().requestsTo('POST /deepseek/v1/chat/completions').at(-1)!.json).toMatchObject({
      model: 'deepseek-chat',
      max_tokens: 400,
      messages: [{ role: 'user', content: 'Invent a new holiday.' }],
    });
    expect(upstream().requestsTo('POST /deepseek/v1/completions')).toHaveLength(0);
  });

  it('refuses with a 400 naming them the parameters chat cannot honour, before any upstream call, booked', async () => {
    const { id, key } = await createKey({ name: 'completions-refused' });
    const refused = (body: Record<string, unknown>) =>
      client(key)
        .completions.create({ model: 'claude', prompt: 'Say hello.', ...body } as never)
        .catch((e: unknown) => e);
    expect(await refused({ echo: true })).toMatchObject({
      status: 400,
      param: 'echo',
      code: 'unsupported_parameter',
      type: 'invalid_request_error',
    });
    expect(await refused({ logprobs: 1 })).toMatchObject({
      status: 400,
      param: 'logprobs',
      code: 'unsupported_parameter',
    });
    expect(await refused({ suffix: ' world' })).toMatchObject({
      status: 400,
      param: 'suffix',
      code: 'unsupported_parameter',
    });
    expect(await refused({ best_of: 3 })).toMatchObject({
      status: 400,
      param: 'best_of',
      code: 'unsupported_parameter',
    });
    expect(await refused({ prompt: [1212, 318, 257] })).toMatchObject({
      status: 400,
      param: 'prompt',
      code: 'unsupported_parameter',
    });
    const both = (await refused({ echo: true, suffix: 'x' })) as Error;
    expect(both.message).toContain("'echo'");
    expect(both.message).toContain("'suffix'");
    expect(await refused({ prompt: ['a', 'b'], stream: true })).toMatchObject({ status: 400, param: 'prompt' });
    expect(upstream().requests).toHaveLength(0);
    expect((await ledgerOf(id, 7)).every((r) => r.status === 400)).toBe(true);
  });

  it('refuses bad input with a 400 in OpenAI shape naming the field', async () => {
    const { key } = await createKey({ name: 'completions-bad' });
    const bad = (body: Record<string, unknown>) =>
      client(key)
        .completions.create(body as never)
        .catch((e: unknown) => e);
    expect(await bad({ model: 'gpt-3.5-turbo-instruct' })).toMatchObject({
      status: 400,
      param: 'prompt',
      type: 'invalid_request_error',
    });
    expect(await bad({ model: 'gpt-3.5-turbo-instruct', prompt: 'x', logprobs: 6 })).toMatchObject({
      status: 400,
      param: 'logprobs',
    });
    expect(
      await bad({ model: 'gpt-3.5-turbo-instruct', prompt: 'x', stream_options: { include_usage: true } }),
    ).toMatchObject({ status: 400, param: 'stream_options' });
    expect(await bad({ model: 'gpt-3.5-turbo-instruct', prompt: 'x', stream: true, best_of: 2 })).toMatchObject({
      status: 400,
      param: 'best_of',
    });
    expect(await bad({ model: 'no-such-model', prompt: 'x' })).toMatchObject({ status: 404 });
    expect(upstream().requests).toHaveLength(0);
  });

  it('applies the key: 401 for a wrong key, 429 over rpm, 403 for a model the key may not use', async () => {
    await expect(
      client('sk-not-a-key-0000000000').completions.create({ model: 'claude', prompt: 'x' }),
    ).rejects.toMatchObject({ status: 401 });
    const { key } = await createKey({ name: 'completions-rpm', rpm_limit: 1 });
    await client(key).completions.create({ model: 'claude', prompt: 'x' });
    await expect(client(key).completions.create({ model: 'claude', prompt: 'x' })).rejects.toMatchObject({
      status: 429,
      code: 'rate_limit_exceeded',
    });
    const limited = await createKey({ name: 'completions-models', models: ['gpt-4o'] });
    await expect(client(limited.key).completions.create({ model: 'claude', prompt: 'x' })).rejects.toMatchObject({
      status: 403,
    });
  });
});
