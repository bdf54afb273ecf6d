import {
  type MockReply,
  type MockRoute,
  type MockUpstream,
  type RecordedRequest,
  makeWav,
  openaiReplayRoutes,
  sseFrames,
  testkitFixtures,
} from '@switchyard/testkit';
import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config/config-from-env.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-azure-0123456789';
const AZURE_KEY = 'azure-resource-key-0123456789abcdef';
const API_VERSION = '2024-10-21';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
let client: OpenAI;

/**
 * An Azure OpenAI resource: answers the recorded OpenAI-format replies under `/openai/deployments/<deployment>/...`,
 * but only with `api-version=2024-10-21` (else 404, as Azure does for unknown versions) and the right `api-key`
 * (else 401 with Azure's error shape).
 */
function azure(route: MockRoute): MockRoute {
  return async (request: RecordedRequest, call: number): Promise<MockReply> => {
    if (request.query['api-version'] !== API_VERSION)
      return { status: 404, json: { error: { code: '404', message: 'Resource not found' } } };
    if (request.headers['api-key'] !== AZURE_KEY) {
      return {
        status: 401,
        json: {
          error: { code: '401', message: 'Access denied due to invalid subscription key or wrong API endpoint.' },
        },
      };
    }
    if (typeof route === 'function') return route(request, call);
    return Array.isArray(route) ? route[Math.min(call, route.length - 1)]! : (route as MockReply);
  };
}

const openai = openaiReplayRoutes();

const chatStream = sseFrames(fixtures.chunkLines('azure/azure-model-router.1.chunks.txt'));

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /openai/deployments/my-gpt4o-deployment/chat/completions': azure((request) =>
            (request.json as { stream?: boolean }).stream
              ? { chunks: chatStream }
              : { json: fixtures.json('azure/azure-chat.json') },
          ),
          'POST /openai/deployments/my-embedding/embeddings': azure(openai['POST /v1/embeddings']!),
          'POST /openai/deployments/my-whisper/audio/transcriptions': azure(openai['POST /v1/audio/transcriptions']!),
          'POST /openai/deployments/my-tts/audio/speech': azure(openai['POST /v1/audio/speech']!),
          'POST /openai/deployments/my-dalle/images/generations': azure(openai['POST /v1/images/generations']!),
          'GET /openai/models': azure({
            json: { object: 'list', data: [{ id: 'gpt-4o-2024-08-06', created_at: 1722902400, object: 'model' }] },
          }),
          'POST /openai/deployments/filtered/chat/completions': azure({
            status: 400,
            json: fixtures.json('azure/azure-content-filter-error.json'),
          }),
          'POST /openai/deployments/throttled/chat/completions': azure((_request, call) =>
            call === 0
              ? {
                  status: 429,
                  headers: { 'x-ms-retry-after-ms': '300' },
                  json: {
                    error: {
                      code: '429',
                      message: 'Requests to the ChatCompletions_Create Operation have exceeded call rate limit.',
                    },
                  },
                }
              : { json: fixtures.json('azure/azure-chat.json') },
          ),
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  azure: { adapter: azure, api_key: ${AZURE_KEY}, base_url: "${url.upstream}", api_version: "${API_VERSION}" }
  azure-wrong-key: { adapter: azure, api_key: not-the-key-000000, base_url: "${url.upstream}" }
models:
  - { id: gpt-4o, provider: azure, upstream: my-gpt4o-deployment }
  - { id: text-embedding-3-small, provider: azure, upstream: my-embedding }
  - { id: whisper-1, provider: azure, upstream: my-whisper }
  - { id: tts-1, provider: azure, upstream: my-tts }
  - { id: dall-e-3, provider: azure, upstream: my-dalle }
  - { id: filtered, provider: azure, upstream: filtered }
  - { id: throttled, provider: azure, upstream: throttled, max_retries: 1 }   # a header can only lower it (issue #22)
  - { id: wrong-key, provider: azure-wrong-key, upstream: my-gpt4o-deployment }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      openai: client,
    } = gateway),
);

describe('Azure OpenAI through the official openai SDK', () => {
  it('answers a chat completion from the deployment, with api-version and api-key', async () => {
    const completion = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'What is 4200 + 42?' }],
    });
    expect(completion.choices[0]?.message.content).toBe('4200 + 42 equals 4242.');
    expect(completion.usage).toMatchObject({ prompt_tokens: 16, completion_tokens: 11, total_tokens: 27 });
    const sent = upstream.requestsTo('POST /openai/deployments/my-gpt4o-deployment/chat/completions').at(-1)!;
    expect(sent.query['api-version']).toBe(API_VERSION);
    expect(sent.headers['api-key']).toBe(AZURE_KEY);
  });

  it('streams without the prompt-filter preamble, one id, usage at the end', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Capital?' }],
    });
    const ids = new Set<string>();
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      ids.add(chunk.id);
      text += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(ids).toEqual(new Set(['chatcmpl-CYPS1lijGoK8gd9lYzY3r9Sx50nbt']));
    expect(text).toMatch(/^Capital of/);
    expect(usage?.total_tokens).toBe(93);
  });

  it("answers Azure's content-filter refusal as a 400 with code content_filter", async () => {
    const error = (await client.chat.completions
      .create({ model: 'filtered', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('content_filter');
    expect(error.message).toMatch(/content management policy.*Filtered: self_harm \(medium\)\./s);
  });

  it('retries a 429 after the x-ms-retry-after-ms Azure asks for', async () => {
    const started = Date.now();
    const response = await client.chat.completions
      .create(
        { model: 'throttled', messages: [{ role: 'user', content: 'x' }] },
        { headers: { 'x-switchyard-max-retries': '1' } },
      )
      .withResponse();
    expect(response.data.choices[0]?.message.content).toBe('4200 + 42 equals 4242.');
    expect(response.response.headers.get('x-switchyard-attempts')).toBe('2');
    expect(Date.now() - started).toBeGreaterThanOrEqual(300); // Above the 0..200 ms jitter of the default backoff.
  });

  // Issue #22: the upstream refused the gateway's key, not the client's: 502 upstream_auth_failed naming the provider.
  it('answers 502 when the resource key is wrong, without leaking either key', async () => {
    const error = (await client.chat.completions
      .create({ model: 'wrong-key', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_auth_failed');
    expect(JSON.stringify(error.error)).not.toContain('not-the-key');
    expect(JSON.stringify(error.error)).not.toContain(AZURE_KEY);
  });

  it('embeds through the embeddings deployment', async () => {
    const res = await client.embeddings.create({ model: 'text-embedding-3-small', input: ['a', 'b'] });
    const recorded = fixtures.json<{ data: { embedding: number[] }[] }>('openai/openai-embedding.json');
    expect(res.data[1]!.embedding).toEqual(recorded.data[1]!.embedding.map((x) => Math.fround(x)));
  });

  it('transcribes, speaks and draws through their deployments', async () => {
    const transcription = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(makeWav({ durationMs: 200 }), 'a.wav', { type: 'audio/wav' }),
    });
    expect(transcription.text).toBe(
      fixtures.json<{ text: string }>('openai/spec-examples/createtranscription-default.json').text,
    );
    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello' });
    expect(Buffer.from(await speech.arrayBuffer()).equals(makeWav({ durationMs: 250 }))).toBe(true);
    const image = await client.images.generate({ model: 'dall-e-3', prompt: 'otter', response_format: 'b64_json' });
    expect(image.data?.[0]?.b64_json).toBe(
      fixtures.json<{ data: { b64_json: string }[] }>('openai/openai-image.json').data[0]!.b64_json,
    );
    for (const path of ['my-whisper/audio/transcriptions', 'my-tts/audio/speech', 'my-dalle/images/generations']) {
      expect(upstream.requestsTo(`POST /openai/deployments/${path}`).at(-1)?.query['api-version']).toBe(API_VERSION);
    }
  });

  it("lists the resource's models as azure/<id>", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toContain('azure/gpt-4o-2024-08-06');
  });
});

describe('Azure from the environment', () => {
  it('is enabled by AZURE_OPENAI_API_KEY + AZURE_OPENAI_ENDPOINT', async () => {
    const config = await configFromEnv({
      SWITCHYARD_API_KEY: KEY,
      AZURE_OPENAI_API_KEY: AZURE_KEY,
      AZURE_OPENAI_ENDPOINT: 'https://my-resource.openai.azure.com',
    });
    expect(config.providers.azure).toMatchObject({
      adapter: 'azure',
      api_key: AZURE_KEY,
      base_url: 'https://my-resource.openai.azure.com',
    });
  });

  it('is not enabled by the key alone', async () => {
    await expect(configFromEnv({ SWITCHYARD_API_KEY: KEY, AZURE_OPENAI_API_KEY: AZURE_KEY })).rejects.toThrow(
      /no provider key/,
    );
  });
});
