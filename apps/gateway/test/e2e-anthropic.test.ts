import { type MockUpstream, sseFrames, testkitFixtures } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-anthropic-0123456789';
const ANTHROPIC_KEY = 'sk-ant-e2e-secret-abcdef';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      anthropic: {
        routes: {
          'POST /v1/messages': (request) => {
            const body = request.json as { stream?: boolean; tools?: unknown[] };
            const name = body.tools ? 'anthropic-tool-no-args' : 'anthropic-text';
            return body.stream
              ? { chunks: sseFrames(fixtures.chunkLines(`anthropic/${name}.chunks.txt`), 'typed') }
              : { json: fixtures.json(`anthropic/${name}.json`) };
          },
          'GET /v1/models': { json: fixtures.json('anthropic/anthropic-models.json') },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: "${ANTHROPIC_KEY}", base_url: "${url.anthropic}", max_tokens: { default: 1024, claude-sonnet-4-5-20250929: 8192 } }
models:
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { anthropic: upstream },
      openai: client,
    } = gateway),
);

describe('Claude through the official openai SDK', () => {
  it('answers a chat completion, with the per-model max_tokens default', async () => {
    const completion = await client.chat.completions.create({
      model: 'claude',
      messages: [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: 'Hello' },
      ],
    });
    expect(completion.choices[0]?.message.content).toMatch(/^Hello! I'm doing well/);
    expect(completion.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 29, total_tokens: 41 });
    const sent = upstream.requestsTo('POST /v1/messages').at(-1)!;
    expect(sent.json).toMatchObject({ model: 'claude-sonnet-4-5-20250929', system: 'Be nice.', max_tokens: 8192 });
    expect(sent.headers['x-api-key']).toBe(ANTHROPIC_KEY);
  });

  it('streams, ending with [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: 'claude',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'Hello' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toMatch(/^Hello/);
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 30, total_tokens: 42 });
  });

  it('returns tool calls the SDK understands, and sends tool results back as tool_result blocks', async () => {
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'updateIssueList', parameters: { type: 'object', properties: {} } },
      },
    ];
    const completion = await client.chat.completions.create({
      model: 'claude',
      tools,
      messages: [{ role: 'user', content: 'Update the issues' }],
    });
    const call = completion.choices[0]!.message.tool_calls![0]!;
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
    expect(call.type === 'function' && call.function.name).toBe('updateIssueList');
    await client.chat.completions.create({
      model: 'claude',
      tools,
      messages: [
        { role: 'user', content: 'Update the issues' },
        completion.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: 'done' },
      ],
    });
    const sent = upstream.requestsTo('POST /v1/messages').at(-1)!.json as {
      messages: { role: string; content: { type: string }[] }[];
    };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(sent.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: call.id, content: 'done' });
  });

  it('rejects a parameter Claude cannot honour with a 400 naming it, without calling upstream', async () => {
    const before = upstream.requests.length;
    const error = (await client.chat.completions
      .create({ model: 'claude', temperature: 1.7, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.param).toBe('temperature');
    expect(upstream.requests.length).toBe(before);
  });

  it('maps an overloaded upstream (529) to 503 in OpenAI shape', async () => {
    upstream.route('POST /v1/messages', {
      status: 529,
      json: fixtures.json('anthropic/anthropic-error-overloaded.json'),
    });
    const error = (await client.chat.completions
      .create({ model: 'claude', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(503);
    expect(error.error).toMatchObject({ message: 'Overloaded', type: 'server_error' });
  });

  it('answers embeddings with 400 unsupported_operation naming model and provider', async () => {
    const error = (await client.embeddings
      .create({ model: 'claude', input: 'x' })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.code).toBe('unsupported_operation');
    expect(error.message).toContain("'claude' (provider 'anthropic')");
  });

  it("lists Anthropic's models as anthropic/<id>", async () => {
    const ids: string[] = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(['claude', 'anthropic/claude-sonnet-4-5-20250929', 'anthropic/claude-haiku-4-5-20251001']);
  });
});
