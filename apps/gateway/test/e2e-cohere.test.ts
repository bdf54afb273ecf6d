import { type MockUpstream, createFixtureReader, sseFrames } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-cohere-0123456789';
const CO_KEY = 'co-upstream-secret-0123456789';
// The recordings ship with @switchyard/provider-cohere (provenance in its fixtures/cohere/README.md).
const fixtures = createFixtureReader(new URL('../../../packages/provider-cohere/fixtures/', import.meta.url));
const embedding = fixtures.json<{ embeddings: { float: number[][] } }>('cohere/cohere-embedding.json');
let upstream: MockUpstream;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /v2/embed': (request) =>
            request.headers.authorization === `Bearer ${CO_KEY}`
              ? { json: embedding }
              : { status: 401, json: { message: 'invalid api token' } },
          'POST /v2/chat': (request) =>
            (request.json as { stream?: boolean }).stream
              ? { chunks: sseFrames(fixtures.chunkLines('cohere/cohere-tool-call.chunks.txt'), 'typed') }
              : { json: fixtures.json('cohere/cohere-text.json') },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  cohere: { adapter: cohere, api_key: ${CO_KEY}, base_url: "${url.upstream}", input_type: search_query }
models:
  - { id: embed, provider: cohere, upstream: embed-v4.0 }
  - { id: command, provider: cohere, upstream: command-a-03-2025 }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      openai: client,
    } = gateway),
);

describe('Cohere through the official openai SDK', () => {
  it('embeds (the SDK asks base64 and decodes it) with the configured input_type', async () => {
    const result = await client.embeddings.create({
      model: 'embed',
      input: ['sunny day at the beach', 'rainy day in the city'],
    });
    expect(result.data).toHaveLength(2);
    result.data.forEach((item, i) => {
      item.embedding.forEach((value, j) => {
        expect(value).toBeCloseTo(embedding.embeddings.float[i]![j]!, 6);
      });
    });
    expect(upstream.requestsTo('POST /v2/embed')[0]!.json).toMatchObject({
      input_type: 'search_query',
      embedding_types: ['float'],
    });
  });

  it('embeds as float when asked', async () => {
    const result = await client.embeddings.create({
      model: 'embed',
      input: 'sunny day at the beach',
      encoding_format: 'float',
    });
    expect(result.data[0]!.embedding).toEqual(embedding.embeddings.float[0]);
  });

  it('answers a chat completion and streams tool calls the SDK assembles', async () => {
    const completion = await client.chat.completions.create({
      model: 'command',
      messages: [{ role: 'user', content: 'Capital of France?' }],
    });
    expect(completion.choices[0]!.message.content).toBe('The capital of France is Paris.');
    const stream = client.chat.completions.stream({
      model: 'command',
      messages: [{ role: 'user', content: 'Weather and attractions in SF?' }],
      tools: [
        {
          type: 'function',
          function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
        },
        {
          type: 'function',
          function: {
            name: 'cityAttractions',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ],
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.finish_reason).toBe('tool_calls');
    expect(
      final.choices[0]!.message.tool_calls!.filter((c) => c.type === 'function').map((c) => [
        c.id,
        c.function.name,
        JSON.parse(c.function.arguments),
      ]),
    ).toEqual([
      ['weather_e8p4pn45zt0t', 'weather', { location: 'San Francisco' }],
      ['cityAttractions_pyxssbwnq9fq', 'cityAttractions', { city: 'San Francisco' }],
    ]);
  });
});
