import { describe, expect, it } from 'vitest';
import {
  ADAPTER_SPEC_VERSION,
  type ChatCompletion,
  type ChatCompletionChunk,
  createGateway,
  isChunkStream,
} from '../src/index.js';

const completion: ChatCompletion = {
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'up',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'hi', refusal: null }, finish_reason: 'stop', logprobs: null },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 99 },
};

const gateway = createGateway({
  providers: {
    fake: {
      specVersion: ADAPTER_SPEC_VERSION,
      adapter: 'fake',
      async chatCompletions(request, context) {
        context.warn({ code: 'unsupported_parameter', param: 'logit_bias', message: 'dropped' });
        if (!request.stream) return { ...completion, model: request.model };
        return (async function* (): AsyncGenerator<ChatCompletionChunk> {
          yield {
            id: 'c',
            object: 'chat.completion.chunk',
            created: 1,
            model: request.model,
            choices: [],
            usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 0 },
          };
        })();
      },
    },
  },
  models: [{ id: 'alias', provider: 'fake', upstream: 'up-1' }],
  keys: ['sk-abcdefghijklmnop'],
});

describe('Gateway', () => {
  it('routes to the upstream model, sums usage and reports warnings', async () => {
    const result = await gateway.chatCompletions({ model: 'alias', messages: [{ role: 'user', content: 'x' }] });
    expect(result).toMatchObject({
      provider: 'fake',
      upstreamModel: 'up-1',
      warnings: [{ code: 'unsupported_parameter' }],
    });
    expect(isChunkStream(result.data)).toBe(false);
    expect((result.data as ChatCompletion).usage).toMatchObject({ total_tokens: 7 });
    // The answer names the model the client asked for; the upstream's id is the result's upstreamModel.
    expect((result.data as ChatCompletion).model).toBe('alias');
  });

  it('sums usage on stream chunks', async () => {
    // The client asks for usage, so the usage chunk reaches it (without include_usage it is stripped, and a loop over
    // the chunks asserting inside it never ran: issue #22).
    const result = await gateway.chatCompletions({
      model: 'fake/up-2',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(isChunkStream(result.data)).toBe(true);
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of result.data as AsyncIterable<ChatCompletionChunk>) chunks.push(chunk);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.usage?.total_tokens).toBe(3);
  });

  it('answers 400 unsupported_operation for an operation the provider lacks', async () => {
    await expect(gateway.embeddings({ model: 'alias', input: 'x' })).rejects.toMatchObject({
      status: 400,
      code: 'unsupported_operation',
    });
  });

  it('rejects stream_options without stream', async () => {
    await expect(
      gateway.chatCompletions({
        model: 'alias',
        messages: [{ role: 'user', content: 'x' }],
        stream_options: { include_usage: true },
      }),
    ).rejects.toMatchObject({
      status: 400,
      param: 'stream_options',
    });
  });
});

describe('stream usage accounting', () => {
  const seen: unknown[] = [];
  const usageGateway = createGateway({
    providers: {
      fake: {
        specVersion: ADAPTER_SPEC_VERSION,
        adapter: 'fake',
        async chatCompletions(request) {
          seen.push(request.stream_options);
          return (async function* (): AsyncGenerator<ChatCompletionChunk> {
            yield {
              id: 'c',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'm',
              choices: [{ index: 0, delta: { content: 'hi' }, finish_reason: 'stop' }],
            };
            yield {
              id: 'c',
              object: 'chat.completion.chunk',
              created: 1,
              model: 'm',
              choices: [],
              usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
            };
          })();
        },
      },
    },
  });

  it('asks the upstream for usage, strips it when the client did not ask, and reports it when the stream ends', async () => {
    const result = await usageGateway.chatCompletions({
      model: 'fake/m',
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of result.data as AsyncIterable<ChatCompletionChunk>) chunks.push(chunk);
    expect(seen.at(-1)).toEqual({ include_usage: true });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.usage).toBeUndefined();
    expect(await result.finished).toEqual({
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
      finishReasons: ['stop'],
      completed: true,
    });
  });

  it('passes the usage chunk through when the client asked for it', async () => {
    const result = await usageGateway.chatCompletions({
      model: 'fake/m',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'x' }],
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of result.data as AsyncIterable<ChatCompletionChunk>) chunks.push(chunk);
    expect(chunks.at(-1)?.usage?.total_tokens).toBe(7);
  });

  it('does not ask a provider for stream usage when its stream_usage setting is off, and still strips a usage chunk the client did not ask for', async () => {
    seen.length = 0;
    const off = createGateway({
      providers: { fake: usageGateway.router.providers.get('fake')! },
      providerSettings: { fake: { streamUsage: false } },
    });
    const result = await off.chatCompletions({
      model: 'fake/m',
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    });
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of result.data as AsyncIterable<ChatCompletionChunk>) chunks.push(chunk);
    expect(seen).toEqual([undefined]);
    // The name said "strips nothing then" and nothing checked it; the gateway strips (as OpenAI sends no usage chunk
    // without include_usage), so that is what is asserted now.
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.usage).toBeUndefined();
  });

  it('gives every gateway its own upstream connection pool', async () => {
    const a = createGateway({ providers: {}, connectTimeoutMs: 100 });
    const b = createGateway({ providers: {}, connectTimeoutMs: 5_000 });
    expect(a.dispatcher).not.toBe(b.dispatcher);
    await a.close();
    await b.close();
  });
});
