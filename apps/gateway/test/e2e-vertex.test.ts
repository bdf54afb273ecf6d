import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type GoogleTokenMock,
  type MockUpstream,
  createTestServiceAccount,
  googleTokenMock,
  sseFrames,
  startMockUpstream,
  testkitFixtures,
} from '@switchyard/testkit';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config/config-from-env.js';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

const KEY = 'sk-switchyard-vertex-0123456789';
const ROOT = '/v1/projects/my-project/locations/us-central1/publishers';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
let tokens: GoogleTokenMock;
let running: RunningServer;
let client: OpenAI;
let keyFile: string;

beforeAll(async () => {
  upstream = await startMockUpstream();
  const account = createTestServiceAccount(`${upstream.url}/oauth2/token`);
  tokens = googleTokenMock(account);
  const guard = tokens.requireToken;
  upstream.route('POST /oauth2/token', tokens.route);
  upstream.route(
    `POST ${ROOT}/google/models/gemini-2.5-flash:generateContent`,
    guard(() => ({ json: fixtures.json('google/google-text.json') })),
  );
  upstream.route(
    `POST ${ROOT}/google/models/gemini-2.5-flash:streamGenerateContent`,
    guard(() => ({ chunks: sseFrames(fixtures.chunkLines('google/google-text.chunks.txt'), 'gemini') })),
  );
  upstream.route(
    `POST ${ROOT}/anthropic/models/claude-sonnet-4@20250514:rawPredict`,
    guard(() => ({ json: fixtures.json('anthropic/anthropic-text.json') })),
  );
  upstream.route(
    `POST ${ROOT}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`,
    guard(() => ({ chunks: sseFrames(fixtures.chunkLines('anthropic/anthropic-text.chunks.txt'), 'typed') })),
  );
  upstream.route(
    `POST ${ROOT}/google/models/text-embedding-005:predict`,
    guard(() => ({ json: fixtures.json('google-vertex/google-vertex-embedding.json') })),
  );
  upstream.route(
    `POST ${ROOT}/google/models/imagen-3.0-generate-002:predict`,
    guard((request) => {
      const { parameters } = request.json as { parameters: { sampleCount: number } };
      return {
        json: {
          predictions: Array.from({ length: parameters.sampleCount }, () => ({
            bytesBase64Encoded: PNG,
            mimeType: 'image/png',
          })),
        },
      };
    }),
  );
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-vertex-'));
  keyFile = join(dir, 'service-account.json');
  await writeFile(keyFile, JSON.stringify(account.key));
  const yaml = `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  vertex: { adapter: vertex, project: my-project, location: us-central1, credentials: "${keyFile}", base_url: "${upstream.url}" }
models:
  - { id: gemini-vertex, provider: vertex, upstream: gemini-2.5-flash }
  - { id: claude-vertex, provider: vertex, upstream: "claude-sonnet-4@20250514" }
  - { id: vertex-embed, provider: vertex, upstream: text-embedding-005 }
  - { id: imagen, provider: vertex, upstream: imagen-3.0-generate-002 }
routing: { max_retries: 0 }
`;
  running = await startGatewayFromYaml(yaml);
  client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

describe('Vertex AI through the official openai SDK', () => {
  it('answers Gemini with a token from the service account, exchanged at its token_uri', async () => {
    const completion = await client.chat.completions.create({
      model: 'gemini-vertex',
      messages: [{ role: 'user', content: 'How many r in strawberry?' }],
    });
    expect(completion.choices[0]?.message.content).toContain('**3**');
    expect(upstream.requestsTo('POST /oauth2/token').length).toBeGreaterThanOrEqual(1);
    expect(
      upstream.requestsTo(`POST ${ROOT}/google/models/gemini-2.5-flash:generateContent`).at(-1)!.headers.authorization,
    ).toBe(`Bearer ${tokens.issued.at(-1)}`);
  });

  it('streams Gemini (alt=sse)', async () => {
    const stream = await client.chat.completions.create({
      model: 'gemini-vertex',
      stream: true,
      messages: [{ role: 'user', content: 'How many r?' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toMatch(/^There are \*\*3\*\*/);
    expect(
      upstream.requestsTo(`POST ${ROOT}/google/models/gemini-2.5-flash:streamGenerateContent`).at(-1)!.query,
    ).toEqual({ alt: 'sse' });
  });

  it("answers Claude through Anthropic's publisher with anthropic_version vertex-2023-10-16", async () => {
    const completion = await client.chat.completions.create({
      model: 'claude-vertex',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(completion.choices[0]?.message.content).toBe(
      fixtures.json<{ content: { text: string }[] }>('anthropic/anthropic-text.json').content[0]!.text,
    );
    const sent = upstream.requestsTo(`POST ${ROOT}/anthropic/models/claude-sonnet-4@20250514:rawPredict`).at(-1)!
      .json as Record<string, unknown>;
    expect(sent).toMatchObject({ anthropic_version: 'vertex-2023-10-16', max_tokens: 100 });
    expect(sent.model).toBeUndefined();
  });

  it('streams Claude (streamRawPredict)', async () => {
    const stream = await client.chat.completions.create({
      model: 'claude-vertex',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 30 });
    expect(
      (
        upstream.requestsTo(`POST ${ROOT}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`).at(-1)!.json as {
          stream?: boolean;
        }
      ).stream,
    ).toBe(true);
  });

  it('embeds through :predict with outputDimensionality', async () => {
    const res = await client.embeddings.create({
      model: 'vertex-embed',
      input: ['a', 'b'],
      dimensions: 5,
      encoding_format: 'float',
    });
    expect(res.data).toHaveLength(2);
    expect(res.data[1]!.embedding[0]).toBe(-0.06007182598114014);
    expect(res.usage).toEqual({ prompt_tokens: 11, total_tokens: 11 });
    expect(upstream.requestsTo(`POST ${ROOT}/google/models/text-embedding-005:predict`).at(-1)!.json).toEqual({
      instances: [{ content: 'a' }, { content: 'b' }],
      parameters: { outputDimensionality: 5 },
    });
  });

  it('generates images with Imagen', async () => {
    const res = await client.images.generate({
      model: 'imagen',
      prompt: 'A fox',
      n: 2,
      size: '1024x1024',
      response_format: 'b64_json',
    });
    expect(res.data?.map((d) => d.b64_json)).toEqual([PNG, PNG]);
  });

  it('refreshes the token once after a 401 and still answers', async () => {
    const before = tokens.issued.length;
    tokens.revokeAll();
    const completion = await client.chat.completions.create({
      model: 'gemini-vertex',
      messages: [{ role: 'user', content: 'again' }],
    });
    expect(completion.choices[0]?.message.content).toContain('**3**');
    expect(tokens.issued.length).toBe(before + 1);
  });
});

describe('Vertex from the environment', () => {
  it('is enabled by GOOGLE_APPLICATION_CREDENTIALS + VERTEX_PROJECT + VERTEX_LOCATION', async () => {
    const config = await configFromEnv({
      SWITCHYARD_API_KEY: KEY,
      GOOGLE_APPLICATION_CREDENTIALS: keyFile,
      VERTEX_PROJECT: 'my-project',
      VERTEX_LOCATION: 'europe-west4',
    });
    expect(config.providers.vertex).toMatchObject({
      adapter: 'vertex',
      project: 'my-project',
      location: 'europe-west4',
      credentials: keyFile,
    });
  });
});
