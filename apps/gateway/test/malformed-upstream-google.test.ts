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

// Issue #38 item 7 for the Gemini API adapter: answers and stream events were read by a cast (`readUpstreamJson<T>`
// without a schema, `JSON.parse(...) as T`). Generated malformed answers and events, sent by a mock Gemini API through
// the real gateway, must each come back as 502 upstream_invalid_response naming the provider (or end the stream with an
// error event), never a 500, a crash or a success.
const KEY = 'sk-switchyard-google-props-0123456789';
const fixtures = testkitFixtures();
const gateway = useScriptedUpstream(
  (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  gem: { adapter: google, api_key: AIza-props-secret-000000, base_url: "${url}/v1beta" }
models:
  - { id: gemini, provider: gem, upstream: gemini-3-pro-preview }
  - { id: embed, provider: gem, upstream: gemini-embedding-001 }
  - { id: imagen, provider: gem, upstream: imagen-4.0-generate-001 }
routing: { max_retries: 0 }
`,
);

const text = fixtures.json('google/google-text.json');
const toolCall = fixtures.json('google/google-tool-call.json');
const textPaths = [
  ['candidates'],
  ['candidates', 0],
  ['candidates', 0, 'content'],
  ['candidates', 0, 'content', 'parts'],
  ['candidates', 0, 'content', 'parts', 0, 'text'],
  ['candidates', 0, 'finishReason'],
  ['candidates', 0, 'index'],
  ['usageMetadata'],
  ['modelVersion'],
  ['responseId'],
] as const;
const counts = [
  ['usageMetadata', 'promptTokenCount'],
  ['usageMetadata', 'candidatesTokenCount'],
  ['usageMetadata', 'thoughtsTokenCount'],
] as const;
const toolPaths = [
  ['candidates', 0, 'content', 'parts', 0, 'functionCall'],
  ['candidates', 0, 'content', 'parts', 0, 'functionCall', 'name'],
  ['candidates', 0, 'content', 'parts', 0, 'functionCall', 'args'],
  ['candidates', 0, 'content', 'parts', 0, 'thoughtSignature'],
] as const;
const streamEvents = fixtures.chunkLines('google/google-text.chunks.txt').map((line) => JSON.parse(line) as unknown);
const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: PROPERTY_RUNS });
const chatCall = (stream = false) =>
  postJson(`${gateway.url}/chat/completions`, KEY, {
    model: 'gemini',
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  });

describe('Google (Gemini API): malformed upstream answers become 502 upstream_invalid_response', () => {
  it('generateContent answers with a read field of the wrong kind or a bad token count', async () => {
    await property(
      fc.oneof(malformedVariants(text, textPaths, counts), malformedVariants(toolCall, toolPaths)),
      async ({ body }) => {
        gateway.answer(jsonReply(body));
        expectInvalidResponse(await chatCall(), 'gem');
      },
    );
  });

  it('generateContent answers that are not a JSON object', async () => {
    await property(notAnObjectText, async (body) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await chatCall(), 'gem');
    });
  });

  it('streamGenerateContent events of the wrong shape end the stream with an error event', async () => {
    const paths = [
      ['candidates'],
      ['candidates', 0, 'content'],
      ['candidates', 0, 'content', 'parts'],
      ['candidates', 0, 'content', 'parts', 0, 'text'],
      ['usageMetadata'],
      ['usageMetadata', 'promptTokenCount'],
      ['responseId'],
    ];
    const broken = fc
      .record({ event: fc.integer({ min: 0, max: streamEvents.length - 1 }), path: fc.constantFrom(...paths) })
      .filter(({ event, path }) => valueAt(streamEvents[event], path) !== undefined)
      .chain((pick) => wrongKindOf(valueAt(streamEvents[pick.event], pick.path)).map((value) => ({ ...pick, value })));
    await property(broken, async ({ event, path, value }) => {
      gateway.answer({
        chunks: sseFrames(
          streamEvents.map((e, i) => JSON.stringify(i === event ? setAt(e, path, value) : e)),
          'gemini',
        ),
      });
      expectStreamFailure(await chatCall(true), 'gem');
    });
  });

  it('batchEmbedContents and Imagen answers with a read field of the wrong kind', async () => {
    const embeddings = { embeddings: [{ values: [0.1, -0.2, 0.3] }, { values: [0.4, 0.5, -0.6] }] };
    const images = { predictions: [{ bytesBase64Encoded: 'iVBORw0KGgo=', mimeType: 'image/png' }] };
    const cases = fc.oneof(
      malformedVariants(embeddings, [
        ['embeddings'],
        ['embeddings', 0],
        ['embeddings', 0, 'values'],
        ['embeddings', 1, 'values', 2],
      ]).map((m) => ({ ...m, path: '/embeddings', request: { model: 'embed', input: ['a', 'b'] } })),
      malformedVariants(images, [['predictions'], ['predictions', 0], ['predictions', 0, 'bytesBase64Encoded']]).map(
        (m) => ({
          ...m,
          path: '/images/generations',
          request: { model: 'imagen', prompt: 'a cat', response_format: 'b64_json' },
        }),
      ),
    );
    await property(cases, async ({ body, path, request }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await postJson(`${gateway.url}${path}`, KEY, request), 'gem');
    });
  });
});
