// Runs the conformance suite inside the testkit itself, against a minimal OpenAI pass-through adapter defined here,
// so that a change to the suite is checked without building any provider package.
import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  type ChatCompletion,
  type ChatCompletionChunk,
  GatewayError,
  type ProviderAdapter,
  mapTransportError,
  parseSSEStream,
  chatCompletionChunkSchema,
  chatCompletionSchema,
  embeddingResponseSchema,
  readUpstreamEvent,
  readUpstreamJson,
  redactSecrets,
  sendUpstreamRequest,
} from '@switchyard/core/adapter';
import { expect } from 'vitest';
import { conformanceChatRequest, describeAdapterConformance } from '../src/conformance/index.js';
import { sseFrames, testkitFixtures } from '../src/index.js';

async function* chunksOf(
  provider: string,
  body: AsyncIterable<Uint8Array> & { destroy(): void },
  signal: AbortSignal,
): AsyncGenerator<ChatCompletionChunk> {
  try {
    for await (const event of parseSSEStream(body)) {
      if (event.data === '[DONE]') return;
      yield readUpstreamEvent(provider, chatCompletionChunkSchema, event.data);
    }
  } catch (error) {
    throw mapTransportError(provider, error, signal);
  } finally {
    body.destroy();
  }
}

function createTinyAdapter(baseURL: string, apiKey: string): ProviderAdapter {
  const post = (path: string, body: unknown, { signal, provider, headers, upstream }: AdapterCallContext) =>
    sendUpstreamRequest({
      provider,
      upstream,
      url: `${baseURL}${path}`,
      headers: { ...headers, authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
      mapError: (status, text) => {
        const error = (JSON.parse(text) as { error: { message: string; type: string } }).error;
        return new GatewayError({ status, type: error.type, message: redactSecrets(error.message, [apiKey]) });
      },
    });
  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'tiny-openai',
    async chatCompletions(request, context) {
      const { signal, provider } = context;
      const response = await post('/chat/completions', request, context);
      if (request.stream) return chunksOf(provider, response.body, signal);
      return readUpstreamJson(provider, response, signal, chatCompletionSchema);
    },
    async embeddings(request, context) {
      const { signal, provider } = context;
      return readUpstreamJson(provider, await post('/embeddings', request, context), signal, embeddingResponseSchema);
    },
  };
}

const fixtures = testkitFixtures();
const completion = fixtures.json<ChatCompletion>('openai/openai-text.json');
const lines = fixtures.chunkLines('openai/openai-text.chunks.txt');
const streamText = lines.map((l) => (JSON.parse(l) as ChatCompletionChunk).choices[0]?.delta.content ?? '').join('');

describeAdapterConformance({
  name: 'testkit tiny OpenAI pass-through',
  createAdapter: (baseURL, apiKey) => createTinyAdapter(`${baseURL}/v1`, apiKey),
  model: 'gpt-4.1-nano',
  chat: {
    completion: {
      route: 'POST /v1/chat/completions',
      reply: { json: completion },
      expect: {
        content: completion.choices[0]!.message.content!,
        finish_reason: 'stop',
        usage: { prompt_tokens: 16, completion_tokens: 363 },
      },
    },
    stream: {
      route: 'POST /v1/chat/completions',
      reply: { chunks: sseFrames(lines) },
      expect: { content: streamText, finish_reason: 'stop', usage: { prompt_tokens: 16, completion_tokens: 300 } },
    },
    error: {
      route: 'POST /v1/chat/completions',
      reply: { status: 429, json: fixtures.json('openai/openai-error.1.json') },
      expect: { status: 429, message: /exceeded your current quota/, type: 'insufficient_quota' },
    },
    assertRequest(request) {
      expect(request.json).toEqual(conformanceChatRequest('gpt-4.1-nano'));
    },
  },
  embeddings: {
    route: 'POST /v1/embeddings',
    reply: { json: fixtures.json('openai/openai-embedding.json') },
    expect: { count: 2, dimensions: 5 },
  },
  unsupported: [
    'transcriptions',
    'speech',
    'imageGenerations',
    'listModels',
    'translations',
    'moderations',
    'completions',
    'imageEdits',
    'imageVariations',
  ],
});
