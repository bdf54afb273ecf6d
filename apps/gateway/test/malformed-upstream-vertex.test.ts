import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type MockReply,
  type MockRoute,
  type RecordedRequest,
  createTestServiceAccount,
  googleTokenMock,
  sseFrames,
  testkitFixtures,
} from '@switchyard/testkit';
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

// Issue #38 item 7 for Vertex AI: Gemini answers and events, text embeddings and Imagen answers were read by a cast;
// Claude's (rawPredict) through provider-anthropic's schemas. Generated malformed answers and events, sent by a mock
// Vertex AI (with its OAuth2 token endpoint) through the real gateway, must each come back as 502
// upstream_invalid_response naming the provider (or end the stream with an error event).
const KEY = 'sk-switchyard-vertex-props-0123456789';
const fixtures = testkitFixtures();
let tokenRoute: MockRoute = { status: 503 };
const gateway = useScriptedUpstream(
  (url) => {
    const account = createTestServiceAccount(`${url}/oauth2/token`);
    tokenRoute = googleTokenMock(account).route;
    const keyFile = join(mkdtempSync(join(tmpdir(), 'switchyard-vertex-props-')), 'service-account.json');
    writeFileSync(keyFile, JSON.stringify(account.key));
    return `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  vtx: { adapter: vertex, project: my-project, location: us-central1, credentials: "${keyFile}", base_url: "${url}" }
models:
  - { id: gemini, provider: vtx, upstream: gemini-2.5-flash }
  - { id: claude, provider: vtx, upstream: "claude-sonnet-4@20250514" }
  - { id: embed, provider: vtx, upstream: text-embedding-005 }
  - { id: imagen, provider: vtx, upstream: imagen-3.0-generate-002 }
routing: { max_retries: 0 }
`;
  },
  {
    'POST /oauth2/token': (request: RecordedRequest, call: number) =>
      typeof tokenRoute === 'function' ? tokenRoute(request, call) : (tokenRoute as MockReply),
  },
);

const gemini = fixtures.json('google/google-text.json');
const claude = fixtures.json('anthropic/anthropic-text.json');
const embedding = fixtures.json('google-vertex/google-vertex-embedding.json');
const streamEvents = fixtures.chunkLines('google/google-text.chunks.txt').map((line) => JSON.parse(line) as unknown);
const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: PROPERTY_RUNS });
const chatCall = (model: string, stream = false) =>
  postJson(`${gateway.url}/chat/completions`, KEY, { model, stream, messages: [{ role: 'user', content: 'hi' }] });

describe('Vertex AI: malformed upstream answers become 502 upstream_invalid_response', () => {
  it('Gemini and Claude answers with a read field of the wrong kind or a bad token count', async () => {
    const cases = fc.oneof(
      malformedVariants(
        gemini,
        [
          ['candidates'],
          ['candidates', 0, 'content', 'parts'],
          ['candidates', 0, 'content', 'parts', 0, 'text'],
          ['usageMetadata'],
        ],
        [['usageMetadata', 'promptTokenCount']],
      ).map((m) => ({ ...m, model: 'gemini' })),
      malformedVariants(
        claude,
        [['id'], ['model'], ['content'], ['content', 0, 'text'], ['usage']],
        [
          ['usage', 'input_tokens'],
          ['usage', 'output_tokens'],
        ],
      ).map((m) => ({ ...m, model: 'claude' })),
    );
    await property(cases, async ({ body, model }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await chatCall(model), 'vtx');
    });
  });

  it('answers that are not a JSON object', async () => {
    await property(fc.tuple(fc.constantFrom('gemini', 'claude'), notAnObjectText), async ([model, body]) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await chatCall(model), 'vtx');
    });
  });

  it('Gemini stream events of the wrong shape end the stream with an error event', async () => {
    const paths = [
      ['candidates'],
      ['candidates', 0, 'content', 'parts'],
      ['candidates', 0, 'content', 'parts', 0, 'text'],
      ['usageMetadata', 'candidatesTokenCount'],
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
      expectStreamFailure(await chatCall('gemini', true), 'vtx');
    });
  });

  it('text-embeddings and Imagen answers with a read field of the wrong kind or a bad token count', async () => {
    const images = { predictions: [{ bytesBase64Encoded: 'iVBORw0KGgo=', mimeType: 'image/png' }] };
    const cases = fc.oneof(
      malformedVariants(
        embedding,
        [
          ['predictions'],
          ['predictions', 0, 'embeddings'],
          ['predictions', 0, 'embeddings', 'values'],
          ['predictions', 1, 'embeddings', 'values', 0],
        ],
        [['predictions', 0, 'embeddings', 'statistics', 'token_count']],
      ).map((m) => ({ ...m, path: '/embeddings', request: { model: 'embed', input: ['a', 'b'] } })),
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
      expectInvalidResponse(await postJson(`${gateway.url}${path}`, KEY, request), 'vtx');
    });
  });
});
