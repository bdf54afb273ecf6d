import {
  type MockReply,
  type MockUpstream,
  type RecordedRequest,
  eventStreamFrames,
  testkitFixtures,
  verifySigV4,
} from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config/config-from-env.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-bedrock-0123456789';
const AWS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const CLAUDE = '/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const fixtures = testkitFixtures();
const textLines = fixtures.chunkLines('amazon-bedrock/amazon-bedrock-text.chunks.txt');
let upstream: MockUpstream;
let client: OpenAI;

/**
 * Bedrock's front door: every request must carry a valid SigV4 signature for the test key pair (recomputed from what
 * arrived), else 403 InvalidSignatureException as AWS answers.
 */
function signed(
  reply: (request: RecordedRequest, call: number) => MockReply,
): (request: RecordedRequest, call: number) => Promise<MockReply> {
  return async (request, call) => {
    const verdict = await verifySigV4(request, AWS);
    if (!verdict.ok) {
      return {
        status: 403,
        headers: {
          'x-amzn-errortype': 'InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/',
        },
        json: {
          message: `The request signature we calculated does not match the signature you provided (${verdict.reason}).`,
        },
      };
    }
    return reply(request, call);
  };
}

const eventStream = (chunks: Uint8Array[]): MockReply => ({
  headers: { 'content-type': 'application/vnd.amazon.eventstream' },
  chunks,
});
const throttled: MockReply = {
  status: 429,
  headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
  json: { message: 'Too many requests, please wait before trying again.' },
};

// ListFoundationModels answer shape from the API reference (docs.aws.amazon.com/bedrock/latest/APIReference/API_ListFoundationModels.html).
useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          [`POST ${CLAUDE}/converse`]: signed((request) => {
            const body = request.json as { toolConfig?: unknown };
            return {
              json: fixtures.json(
                body.toolConfig
                  ? 'amazon-bedrock/amazon-bedrock-json-with-tool.1.json'
                  : 'amazon-bedrock/amazon-bedrock-text.json',
              ),
            };
          }),
          [`POST ${CLAUDE}/converse-stream`]: signed(() => eventStream(eventStreamFrames(textLines))),
          'POST /model/amazon.titan-embed-text-v2%3A0/invoke': signed((request) => {
            const { inputText } = request.json as { inputText: string };
            return {
              json: { embedding: [inputText.length / 10, 0.6, 0.8], inputTextTokenCount: inputText.split(' ').length },
            };
          }),
          'POST /model/cohere.embed-english-v3/invoke': signed((request) => {
            const { texts } = request.json as { texts: string[] };
            return {
              headers: { 'x-amzn-bedrock-input-token-count': String(texts.length * 3) },
              json: {
                id: 'e1',
                response_type: 'embeddings_by_type',
                texts,
                embeddings: { float: texts.map((_, i) => [i, 0.5]) },
              },
            };
          }),
          'POST /model/amazon.nova-canvas-v1%3A0/invoke': signed((request) => {
            const { imageGenerationConfig } = request.json as { imageGenerationConfig: { numberOfImages: number } };
            return { json: { images: Array.from({ length: imageGenerationConfig.numberOfImages }, () => PNG) } };
          }),
          'GET /foundation-models': signed(() => ({
            json: {
              modelSummaries: [
                { modelId: 'anthropic.claude-3-5-sonnet-20241022-v2:0', providerName: 'Anthropic' },
                { modelId: 'amazon.titan-embed-text-v2:0', providerName: 'Amazon' },
              ],
            },
          })),
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  bedrock: { adapter: bedrock, region: us-east-1, access_key_id: ${AWS.accessKeyId}, secret_access_key: "${AWS.secretAccessKey}", session_token: "", base_url: "${url.upstream}", control_base_url: "${url.upstream}" }
  bedrock-bad-secret: { adapter: bedrock, region: us-east-1, access_key_id: ${AWS.accessKeyId}, secret_access_key: not-the-secret-0000, base_url: "${url.upstream}", control_base_url: "${url.upstream}" }
models:
  - { id: claude-bedrock, provider: bedrock, upstream: "anthropic.claude-3-5-sonnet-20241022-v2:0" }
  - { id: claude-bad-secret, provider: bedrock-bad-secret, upstream: "anthropic.claude-3-5-sonnet-20241022-v2:0" }
  - { id: titan-embed, provider: bedrock, upstream: "amazon.titan-embed-text-v2:0" }
  - { id: cohere-embed, provider: bedrock, upstream: cohere.embed-english-v3 }
  - { id: nova-canvas, provider: bedrock, upstream: "amazon.nova-canvas-v1:0" }
routing: { max_retries: 1, backoff: { base_ms: 1, max_ms: 5 } }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      openai: client,
    } = gateway),
);

describe('Bedrock through the official openai SDK', () => {
  it('answers a chat completion through Converse, signed with SigV4', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude-bedrock',
      max_tokens: 200,
      messages: [
        { role: 'system', content: 'Count.' },
        { role: 'user', content: 'How many r in strawberry?' },
      ],
    });
    expect(completion.choices[0]?.message.content).toContain('There are **3** "r"s');
    expect(completion.choices[0]?.finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 22, completion_tokens: 57, total_tokens: 79 });
    const sent = upstream.requestsTo(`POST ${CLAUDE}/converse`).at(-1)!;
    expect(sent.json).toMatchObject({ system: [{ text: 'Count.' }], inferenceConfig: { maxTokens: 200 } });
  });

  // Issue #22: the upstream refused the gateway's credentials, not the client's: 502 upstream_auth_failed.
  it('fails with 502 upstream_auth_failed when the secret is wrong (the mock recomputes the signature)', async () => {
    const error = (await client.chat.completions
      .create({ model: 'claude-bad-secret', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(502);
    expect(error.code).toBe('upstream_auth_failed');
    expect(error.message).toContain('signature does not match');
    expect(JSON.stringify(error.error)).not.toContain('not-the-secret');
  });

  it('streams event-stream frames as SSE chunks with usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'claude-bedrock',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'How many r?' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    const finishes: string[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.choices[0]?.finish_reason) finishes.push(chunk.choices[0].finish_reason);
      usage = chunk.usage ?? usage;
    }
    expect(text).toMatch(/^Let me count the "r"s in "strawberry"/);
    expect(finishes).toEqual(['stop']);
    expect(usage).toMatchObject({ prompt_tokens: 22, completion_tokens: 55 });
  });

  it('ends a stream with an error event when an exception frame follows two content frames', async () => {
    upstream.route(
      `POST ${CLAUDE}/converse-stream`,
      signed(() =>
        eventStream(
          eventStreamFrames(textLines.slice(0, 3), {
            type: 'modelStreamErrorException',
            message: 'The model stream failed.',
          }),
        ),
      ),
    );
    try {
      const stream = await client.chat.completions.create({
        model: 'claude-bedrock',
        stream: true,
        messages: [{ role: 'user', content: 'x' }],
      });
      let text = '';
      const error = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      })().catch((e: unknown) => e);
      expect(text).toBe('Let me count the "');
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect((error as Error).message).toContain('The model stream failed.');
    } finally {
      upstream.route(
        `POST ${CLAUDE}/converse-stream`,
        signed(() => eventStream(eventStreamFrames(textLines))),
      );
    }
  });

  it('sends tools and an image, and returns the tool calls', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude-bedrock',
      tools: [
        {
          type: 'function',
          function: {
            name: 'get-weather',
            parameters: { type: 'object', properties: { location: { type: 'string' } } },
          },
        },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather where this photo was taken?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
      ],
    });
    const message = completion.choices[0]!.message;
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(
      message.tool_calls?.map(
        (c) => c.type === 'function' && [c.id, c.function.name, JSON.parse(c.function.arguments)],
      ),
    ).toEqual([
      ['tool-1', 'get-weather', { location: 'SF' }],
      ['json-tool-id', 'json', { result: 'data' }],
    ]);
    const sent = upstream.requestsTo(`POST ${CLAUDE}/converse`).at(-1)!.json as {
      messages: { content: unknown[] }[];
      toolConfig: unknown;
    };
    expect(sent.messages[0]!.content[1]).toEqual({ image: { format: 'png', source: { bytes: PNG } } });
    expect(sent.toolConfig).toMatchObject({ tools: [{ toolSpec: { name: 'get-weather' } }] });
  });

  it('retries a ThrottlingException as the routing rules say', async () => {
    upstream.route(
      `POST ${CLAUDE}/converse`,
      signed((_request, call) =>
        call === 0 ? throttled : { json: fixtures.json('amazon-bedrock/amazon-bedrock-text.json') },
      ),
    );
    try {
      const response = await client.chat.completions
        .create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'x' }] })
        .withResponse();
      expect(response.response.headers.get('x-switchyard-attempts')).toBe('2');
      expect(response.data.choices[0]?.message.content).toContain('strawberry');
    } finally {
      upstream.route(
        `POST ${CLAUDE}/converse`,
        signed(() => ({ json: fixtures.json('amazon-bedrock/amazon-bedrock-text.json') })),
      );
    }
  });

  it('answers 429 when Bedrock keeps throttling', async () => {
    upstream.route(
      `POST ${CLAUDE}/converse`,
      signed(() => throttled),
    );
    try {
      const error = (await client.chat.completions
        .create({ model: 'claude-bedrock', messages: [{ role: 'user', content: 'x' }] })
        .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
      expect(error.status).toBe(429);
      expect(error.message).toContain('Too many requests');
    } finally {
      upstream.route(
        `POST ${CLAUDE}/converse`,
        signed(() => ({ json: fixtures.json('amazon-bedrock/amazon-bedrock-text.json') })),
      );
    }
  });

  it('embeds with Titan v2 (one call per input, dimensions, normalised) and Cohere (one batch call)', async () => {
    const titan = await client.embeddings.create({
      model: 'titan-embed',
      input: ['sunny day', 'a rainy day'],
      dimensions: 256,
      encoding_format: 'float',
    });
    expect(titan.data.map((d) => d.embedding)).toEqual([
      [0.9, 0.6, 0.8],
      [1.1, 0.6, 0.8],
    ]);
    expect(titan.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
    const titanCalls = upstream.requestsTo('POST /model/amazon.titan-embed-text-v2%3A0/invoke').map((r) => r.json);
    expect(titanCalls).toEqual(expect.arrayContaining([{ inputText: 'sunny day', dimensions: 256, normalize: true }]));
    const cohere = await client.embeddings.create({ model: 'cohere-embed', input: ['a', 'b', 'c'] });
    expect(cohere.data.map((d) => d.embedding)).toEqual([
      [0, 0.5],
      [1, 0.5],
      [2, 0.5],
    ]);
    expect(cohere.usage.prompt_tokens).toBe(9);
    expect(upstream.requestsTo('POST /model/cohere.embed-english-v3/invoke')).toHaveLength(1);
  });

  it('generates images with Nova Canvas: size, n and b64_json', async () => {
    const res = await client.images.generate({
      model: 'nova-canvas',
      prompt: 'A lighthouse',
      size: '1024x1024',
      n: 2,
      response_format: 'b64_json',
    });
    expect(res.data?.map((d) => d.b64_json)).toEqual([PNG, PNG]);
    expect(upstream.requestsTo('POST /model/amazon.nova-canvas-v1%3A0/invoke').at(-1)!.json).toEqual({
      taskType: 'TEXT_IMAGE',
      textToImageParams: { text: 'A lighthouse' },
      imageGenerationConfig: { numberOfImages: 2, width: 1024, height: 1024, quality: 'standard' },
    });
    const error = (await client.images
      .generate({ model: 'nova-canvas', prompt: 'x', response_format: 'url' })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.param).toBe('response_format');
  });

  it("lists the region's foundation models as bedrock/<modelId>", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'bedrock/anthropic.claude-3-5-sonnet-20241022-v2:0',
        'bedrock/amazon.titan-embed-text-v2:0',
      ]),
    );
  });
});

describe('Bedrock from the environment', () => {
  it('is enabled by AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY + AWS_REGION', async () => {
    const config = await configFromEnv({
      SWITCHYARD_API_KEY: KEY,
      AWS_ACCESS_KEY_ID: AWS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
      AWS_REGION: 'eu-west-1',
    });
    expect(config.providers.bedrock).toMatchObject({
      adapter: 'bedrock',
      region: 'eu-west-1',
      access_key_id: AWS.accessKeyId,
    });
  });

  it('is not enabled without a region', async () => {
    await expect(
      configFromEnv({
        SWITCHYARD_API_KEY: KEY,
        AWS_ACCESS_KEY_ID: AWS.accessKeyId,
        AWS_SECRET_ACCESS_KEY: AWS.secretAccessKey,
      }),
    ).rejects.toThrow(/no provider key/);
  });
});
