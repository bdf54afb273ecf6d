import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type MockUpstream,
  createFixtureReader,
  createTestServiceAccount,
  googleTokenMock,
  startMockUpstream,
  testkitFixtures,
} from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// Issue #22, silent drops: "Every adapter reports what it drops or rejects it". Embeddings and image requests to
// Gemini, Vertex AI and Cohere: each field the upstream cannot honour is translated, refused with a 400 naming it, or
// dropped with an `x-switchyard-warning` naming it; what the SDK sends by default (base64) warns of nothing.
const KEY = 'sk-switchyard-drops-0123456789';
const ROOT = '/v1/projects/my-project/locations/us-central1/publishers/google/models';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const fixtures = testkitFixtures();
// The Cohere recordings ship with @switchyard/provider-cohere (provenance in its fixtures/cohere/README.md).
const cohereFixtures = createFixtureReader(new URL('../../../packages/provider-cohere/fixtures/', import.meta.url));
const imagen = (request: { json: unknown }) => {
  const { parameters } = request.json as { parameters: { sampleCount: number } };
  return {
    json: {
      predictions: Array.from({ length: parameters.sampleCount }, () => ({
        bytesBase64Encoded: PNG,
        mimeType: 'image/png',
      })),
    },
  };
};

let upstream: MockUpstream;
let running: RunningServer;
let client: OpenAI;

beforeAll(async () => {
  upstream = await startMockUpstream();
  const account = createTestServiceAccount(`${upstream.url}/oauth2/token`);
  const tokens = googleTokenMock(account);
  upstream.route('POST /oauth2/token', tokens.route);
  upstream.route('POST /v1beta/models/*:batchEmbedContents', { json: fixtures.json('google/google-batch-embed.json') });
  upstream.route('POST /v1beta/models/imagen-4.0-generate-001:predict', imagen);
  upstream.route(
    `POST ${ROOT}/text-embedding-005:predict`,
    tokens.requireToken(() => ({ json: fixtures.json('google-vertex/google-vertex-embedding.json') })),
  );
  upstream.route(`POST ${ROOT}/imagen-3.0-generate-002:predict`, tokens.requireToken(imagen));
  upstream.route('POST /v2/embed', { json: cohereFixtures.json('cohere/cohere-embedding.json') });
  const keyFile = join(await mkdtemp(join(tmpdir(), 'switchyard-drops-')), 'service-account.json');
  await writeFile(keyFile, JSON.stringify(account.key));
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  google: { adapter: google, api_key: AIza-drops-000000, base_url: "${upstream.url}/v1beta" }
  vertex: { adapter: vertex, project: my-project, location: us-central1, credentials: "${keyFile}", base_url: "${upstream.url}" }
  cohere: { adapter: cohere, api_key: co-drops-000000, base_url: "${upstream.url}" }
models:
  - { id: gemini-embed, provider: google, upstream: text-embedding-004 }
  - { id: vertex-embed, provider: vertex, upstream: text-embedding-005 }
  - { id: cohere-embed, provider: cohere, upstream: embed-v4.0 }
  - { id: gemini-imagen, provider: google, upstream: imagen-4.0-generate-001 }
  - { id: vertex-imagen, provider: vertex, upstream: imagen-3.0-generate-002 }
routing: { max_retries: 0 }
`);
  client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

/** The warnings of a response, one `code: message` string each. */
const warningsOf = (response: Response) =>
  (response.headers.get('x-switchyard-warning') ?? '').split(', ').filter(Boolean);
/** The body the mock upstream last received on `route`. */
const lastBody = (route: string) => upstream.requestsTo(route).at(-1)!.json as Record<string, unknown>;

describe('embeddings: translated, or dropped with a warning naming the field', () => {
  const cases = [
    {
      model: 'gemini-embed',
      upstream: 'Gemini embedding models',
      route: 'POST /v1beta/models/text-embedding-004:batchEmbedContents',
    },
    { model: 'vertex-embed', upstream: 'Vertex AI embedding models', route: `POST ${ROOT}/text-embedding-005:predict` },
    { model: 'cohere-embed', upstream: 'Cohere embedding models', route: 'POST /v2/embed' },
  ];

  it.each(cases)(
    '$model: what the SDK sends by default (base64) and dimensions are honoured without a warning',
    async ({ model, route }) => {
      const { data, response } = await client.embeddings
        .create({ model, input: ['sunny day', 'rainy day'], dimensions: 8 })
        .withResponse();
      expect(data.data.length).toBeGreaterThan(0);
      expect(response.headers.get('x-switchyard-warning')).toBeNull();
      expect(JSON.stringify(lastBody(route))).toMatch(/"(outputDimensionality|output_dimension)":8/);
    },
  );

  it.each(cases)(
    '$model: user and an unknown field are dropped, each named in x-switchyard-warning',
    async ({ model, upstream: name, route }) => {
      const before = upstream.requestsTo(route).length;
      const { response } = await client.embeddings
        .create({
          model,
          input: 'sunny day',
          encoding_format: 'float',
          user: 'user-1',
          priority: 'high',
        } as OpenAI.EmbeddingCreateParams)
        .withResponse();
      expect(upstream.requestsTo(route)).toHaveLength(before + 1);
      const warnings = warningsOf(response);
      expect(warnings).toEqual([
        `unsupported_parameter: 'user' is not supported by ${name} and was ignored.`,
        `unsupported_parameter: 'priority' is not supported by ${name} and was ignored.`,
      ]);
      expect(JSON.stringify(lastBody(route))).not.toContain('user-1');
    },
  );

  it('Gemini and Vertex take task_type (Gemini as taskType), Cohere input_type and truncate, without a warning', async () => {
    const gemini = await client.embeddings
      .create({ model: 'gemini-embed', input: 'q', task_type: 'RETRIEVAL_QUERY' } as OpenAI.EmbeddingCreateParams)
      .withResponse();
    expect(gemini.response.headers.get('x-switchyard-warning')).toBeNull();
    expect((lastBody(cases[0]!.route).requests as { taskType?: string }[])[0]!.taskType).toBe('RETRIEVAL_QUERY');
    const vertex = await client.embeddings
      .create({ model: 'vertex-embed', input: 'q', task_type: 'RETRIEVAL_QUERY' } as OpenAI.EmbeddingCreateParams)
      .withResponse();
    expect(vertex.response.headers.get('x-switchyard-warning')).toBeNull();
    expect((lastBody(cases[1]!.route).instances as { task_type?: string }[])[0]!.task_type).toBe('RETRIEVAL_QUERY');
    const cohere = await client.embeddings
      .create({
        model: 'cohere-embed',
        input: 'q',
        input_type: 'search_query',
        truncate: 'END',
      } as OpenAI.EmbeddingCreateParams)
      .withResponse();
    expect(cohere.response.headers.get('x-switchyard-warning')).toBeNull();
    expect(lastBody(cases[2]!.route)).toMatchObject({ input_type: 'search_query', truncate: 'END' });
  });
});

describe('images/generations on Imagen (Gemini API and Vertex AI)', () => {
  const cases = [
    { model: 'gemini-imagen', route: 'POST /v1beta/models/imagen-4.0-generate-001:predict' },
    { model: 'vertex-imagen', route: `POST ${ROOT}/imagen-3.0-generate-002:predict` },
  ];

  it.each(cases)(
    '$model: n and size are translated, neutral values pass without a warning',
    async ({ model, route }) => {
      const { data, response } = await client.images
        .generate({
          model,
          prompt: 'A fox',
          n: 2,
          size: '1792x1024',
          quality: 'auto',
          background: 'opaque',
          output_format: 'png',
          response_format: 'b64_json',
        })
        .withResponse();
      expect(data.data).toHaveLength(2);
      expect(response.headers.get('x-switchyard-warning')).toBeNull();
      expect(lastBody(route).parameters).toEqual({ sampleCount: 2, aspectRatio: '16:9' });
    },
  );

  it.each(cases)(
    '$model: quality, style, user and moderation are dropped, each named in x-switchyard-warning',
    async ({ model, route }) => {
      const before = upstream.requestsTo(route).length;
      const { data, response } = await client.images
        .generate({ model, prompt: 'A fox', quality: 'hd', style: 'vivid', user: 'user-1', moderation: 'low' })
        .withResponse();
      expect(data.data).toHaveLength(1);
      expect(upstream.requestsTo(route)).toHaveLength(before + 1);
      const params = warningsOf(response).map((w) => /'([a-z_]+)'/.exec(w)?.[1]);
      expect(params).toEqual(['quality', 'style', 'user', 'moderation']);
      expect(warningsOf(response)[0]).toBe(
        "unsupported_parameter: 'quality' is not supported by Imagen models and was ignored.",
      );
    },
  );

  it.each([
    ['n', { n: 5 }],
    ['background', { background: 'transparent' }],
    ['output_format', { output_format: 'jpeg' }],
    ['stream', { stream: true, partial_images: 1 }],
  ] as const)('refuses %s with a 400 naming it, before calling the upstream', async (param, fields) => {
    for (const { model, route } of cases) {
      const before = upstream.requestsTo(route).length;
      const error = await client.images
        .generate({ model, prompt: 'A fox', ...fields } as OpenAI.ImageGenerateParamsNonStreaming)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ status: 400, param, code: 'unsupported_parameter' });
      expect(upstream.requestsTo(route)).toHaveLength(before);
    }
  });
});
