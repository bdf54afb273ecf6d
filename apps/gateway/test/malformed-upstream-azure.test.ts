import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  PROPERTY_RUNS,
  expectInvalidResponse,
  expectStreamFailure,
  jsonReply,
  malformedVariants,
  notAnObjectText,
  postJson,
  setAt,
  useScriptedUpstream,
  valueAt,
  wrongKindOf,
} from './helpers/malformed-upstream.js';

// Issue #38 item 7: Azure chat, embeddings and images answers were read as ChatCompletion/EmbeddingResponse/
// ImagesResponse by a cast. Generated malformed answers and stream events, sent by a mock Azure resource through the
// real gateway, must each come back as 502 upstream_invalid_response naming the provider (or end the stream with an
// error event), never a 500, a crash or a success.
const KEY = 'sk-switchyard-azure-props-0123456789';
const fixtures = testkitFixtures();
const gateway = useScriptedUpstream(
  (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  az: { adapter: azure, api_key: azure-resource-key-0123456789abcdef, base_url: "${url}" }
models:
  - { id: chat, provider: az, upstream: my-deployment }
  - { id: embed, provider: az, upstream: my-embedding }
  - { id: image, provider: az, upstream: my-dalle }
routing: { max_retries: 0 }
`,
);

const chat = fixtures.json('azure/azure-chat.json');
const chatPaths = [
  ['id'],
  ['object'],
  ['created'],
  ['model'],
  ['choices'],
  ['choices', 0],
  ['choices', 0, 'index'],
  ['choices', 0, 'message'],
  ['choices', 0, 'message', 'content'],
  ['choices', 0, 'message', 'role'],
  ['usage'],
] as const;
const usageCounts = [
  ['usage', 'prompt_tokens'],
  ['usage', 'completion_tokens'],
  ['usage', 'total_tokens'],
] as const;
const embedding = fixtures.json('openai/openai-embedding.json');
const image = fixtures.json('openai/openai-image.json');
const streamEvents = fixtures
  .chunkLines('azure/azure-model-router.1.chunks.txt')
  .map((line) => JSON.parse(line) as unknown);
const post = (path: string, body: unknown) => postJson(`${gateway.url}${path}`, KEY, body);
const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: PROPERTY_RUNS });

describe('Azure: malformed upstream answers become 502 upstream_invalid_response', () => {
  it('chat completions with a read field of the wrong kind or a bad token count', async () => {
    await property(malformedVariants(chat, chatPaths, usageCounts), async ({ body }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(
        await post('/chat/completions', { model: 'chat', messages: [{ role: 'user', content: 'hi' }] }),
        'az',
      );
    });
  });

  it('chat completions that are not a JSON object', async () => {
    await property(notAnObjectText, async (text) => {
      gateway.answer(jsonReply(text));
      expectInvalidResponse(
        await post('/chat/completions', { model: 'chat', messages: [{ role: 'user', content: 'hi' }] }),
        'az',
      );
    });
  });

  it('embeddings with a read field of the wrong kind or a bad token count', async () => {
    const paths = [
      ['object'],
      ['data'],
      ['data', 0],
      ['data', 0, 'index'],
      ['data', 0, 'embedding', 1],
      ['model'],
      ['usage'],
    ] as const;
    await property(
      malformedVariants(embedding, paths, [
        ['usage', 'prompt_tokens'],
        ['usage', 'total_tokens'],
      ]),
      async ({ body }) => {
        gateway.answer(jsonReply(body));
        expectInvalidResponse(
          await post('/embeddings', { model: 'embed', input: ['a', 'b'], encoding_format: 'float' }),
          'az',
        );
      },
    );
  });

  it('image generations with a read field of the wrong kind', async () => {
    await property(malformedVariants(image, [['created'], ['data'], ['data', 0]]), async ({ body }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await post('/images/generations', { model: 'image', prompt: 'a cat' }), 'az');
    });
  });

  it('chat streams with one chunk of the wrong shape end with an error event', async () => {
    // Events 1.. are chunks (event 0 is the prompt-filter preamble); the last carries the usage.
    const last = streamEvents.length - 1;
    const broken = fc
      .oneof(
        fc.record({
          event: fc.integer({ min: 1, max: last - 1 }),
          path: fc.constantFrom(['id'], ['choices'], ['choices', 0, 'delta'], ['choices', 0, 'index'], ['model']),
        }),
        fc.record({
          event: fc.constant(last),
          path: fc.constantFrom(['usage'], ['usage', 'prompt_tokens'], ['usage', 'total_tokens']),
        }),
      )
      .chain(({ event, path }) =>
        wrongKindOf(valueAt(streamEvents[event], path)).map((value) => ({ event, path, value })),
      );
    await property(broken, async ({ event, path, value }) => {
      const events = streamEvents.map((e, i) => JSON.stringify(i === event ? setAt(e, path, value) : e));
      gateway.answer({ chunks: sseFrames(events) });
      expectStreamFailure(
        await post('/chat/completions', {
          model: 'chat',
          stream: true,
          stream_options: { include_usage: true },
          messages: [{ role: 'user', content: 'hi' }],
        }),
        'az',
      );
    });
  });
});
