import { type MockUpstream, sseFrames, testkitFixtures } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-google-0123456789';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      google: {
        routes: {
          'POST /v1beta/models/*:generateContent': (request) => ({
            json: fixtures.json(
              (request.json as { tools?: unknown }).tools ? 'google/google-tool-call.json' : 'google/google-text.json',
            ),
          }),
          'POST /v1beta/models/*:streamGenerateContent': {
            chunks: sseFrames(fixtures.chunkLines('google/google-text.chunks.txt'), 'gemini'),
          },
          'POST /v1beta/models/*:batchEmbedContents': { json: fixtures.json('google/google-batch-embed.json') },
          'GET /v1beta/models': { json: fixtures.json('google/google-models.json') },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  google: { adapter: google, api_key: AIza-e2e-secret-000000, base_url: "${url.google}/v1beta" }
models:
  - { id: gemini, provider: google, upstream: gemini-3-pro-preview }
  - { id: embed, provider: google, upstream: text-embedding-004 }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { google: upstream },
      openai: client,
    } = gateway),
);

describe('Gemini through the official openai SDK', () => {
  it('answers a chat completion with usage that adds up', async () => {
    const completion = await client.chat.completions.create({
      model: 'gemini',
      messages: [{ role: 'user', content: 'How many r in strawberry?' }],
    });
    expect(completion.choices[0]?.message.content).toContain('**3**');
    expect(completion.usage?.total_tokens).toBe(
      (completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
    );
  });

  it('streams', async () => {
    const stream = await client.chat.completions.create({
      model: 'gemini',
      stream: true,
      messages: [{ role: 'user', content: 'How many r in strawberry?' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toMatch(/^There are \*\*3\*\*/);
  });

  it('round-trips a tool call: the id the SDK echoes brings back the function name and signature', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
      },
    ];
    const first = await client.chat.completions.create({
      model: 'gemini',
      tools,
      messages: [{ role: 'user', content: 'Weather in SF?' }],
    });
    const message = first.choices[0]!.message;
    const call = message.tool_calls![0]!;
    await client.chat.completions.create({
      model: 'gemini',
      tools,
      messages: [
        { role: 'user', content: 'Weather in SF?' },
        message,
        { role: 'tool', tool_call_id: call.id, content: '{"temperature":18}' },
      ],
    });
    const sent = upstream.requestsTo('POST /v1beta/models/*:generateContent').at(-1)!.json as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
    };
    expect(sent.contents[1]!.parts[0]).toMatchObject({
      functionCall: { name: 'weather' },
      thoughtSignature: expect.stringMatching(/^EskgCsYg/),
    });
    expect(sent.contents[2]!.parts[0]).toEqual({
      functionResponse: { name: 'weather', response: { temperature: 18 } },
    });
  });

  it('embeds with base64 decoded by the SDK to the recorded floats', async () => {
    const res = await client.embeddings.create({ model: 'embed', input: ['a', 'b'] });
    expect(res.data[1]!.embedding).toEqual([-0.0027, 0.0213, -0.0384, 0.0066, 0.0514].map(Math.fround));
  });

  it('lists Gemini models as google/<id>', async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['gemini', 'embed', 'google/gemini-2.5-flash', 'google/text-embedding-004']);
  });

  it('answers a blocked prompt with a 400 that says why, even when streaming', async () => {
    upstream.route('POST /v1beta/models/*:streamGenerateContent', {
      body: fixtures.text('google/streaming-failure-prompt-blocked-safety.txt'),
    });
    const error = (await client.chat.completions
      .create({ model: 'gemini', stream: true, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.message).toContain('SAFETY');
  });

  it('answers speech with 400 unsupported_operation (images are served by Imagen: e2e-google-imagen.test.ts)', async () => {
    const error = (await client.audio.speech
      .create({ model: 'gemini', input: 'x', voice: 'alloy' })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.code).toBe('unsupported_operation');
  });
});
