import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, sseFrames, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { multiProviderRoutes } from './helpers/multi-provider-upstream.js';
import { expectOpenApiSchema, expectOpenApiStreamEvent } from './helpers/openapi-validator.js';
import { createAdminKey } from './helpers/admin-keys.js';

// The OpenAI mock's Responses bodies are built from the OpenAPI examples (testkit fixtures/openai/README.md).
const fixtures = testkitFixtures();
const textExample = fixtures.json<{
  output: { content: { text: string }[] }[];
  usage: { input_tokens: number; output_tokens: number };
}>('openai/spec-examples/createresponse-text.json');
const exampleText = textExample.output[0]!.content[0]!.text;
const streamEvents = fixtures.chunkLines('openai/spec-examples/createresponse-streaming.chunks.txt').map(
  (line) =>
    JSON.parse(line) as {
      type: string;
      delta?: string;
      response?: { usage?: { input_tokens: number; output_tokens: number } };
    },
);
const streamText = streamEvents.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta!] : [])).join('');
const streamUsage = streamEvents.at(-1)!.response!.usage!;
const PRICE = { input: 1.25, output: 10, cached_input: 0.125 }; // USD per million tokens, as configured below
const MASTER = 'sk-master-native-responses-0123456789';

let upstream: MockUpstream;
let running: RunningServer;
let origin: string;
let client: OpenAI;

const dir = mkdtempSync(join(tmpdir(), 'switchyard-native-responses-'));
useGatewayWithUpstreams(
  {
    upstreams: { multi: { routes: multiProviderRoutes() } },
    config: (url) => `
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'gateway.db')}" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${url.multi}/v1", responses: native }
  translated: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${url.multi}/v1" }
  dead: { adapter: openai, api_key: sk-dead-0000, base_url: "http://127.0.0.1:1/v1", responses: native }
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${url.multi}" }
models:
  - { id: gpt, provider: openai, upstream: gpt-5.4, price: { input: ${PRICE.input}, output: ${PRICE.output}, cached_input: ${PRICE.cached_input} } }
  - { id: gpt-chat, provider: translated, upstream: gpt-4.1-nano }
  - { id: flaky, provider: dead, upstream: gpt-dead, fallbacks: [gpt] }
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929, price: { input: 3, output: 15 } }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { multi: upstream },
      running,
      origin,
    } = gateway),
);
beforeAll(async () => {
  const created = await createKey('native-responses');
  client = new OpenAI({ baseURL: running.url, apiKey: created.key, maxRetries: 0 });
});

const createKey = (name: string) => createAdminKey(origin, MASTER, { name });

const responsesCalls = () => upstream.requestsTo('POST /v1/responses');
const lastResponsesBody = () => responsesCalls().at(-1)!.json as Record<string, unknown> & { input: unknown };
const costOf = (usage: { input_tokens: number; output_tokens: number }) =>
  (usage.input_tokens * PRICE.input + usage.output_tokens * PRICE.output) / 1e6;

describe('POST /v1/responses passed through natively (providers.<name>.responses: native)', () => {
  it('sends the request to the upstream /v1/responses as it is and answers its response object', async () => {
    const chatBefore = upstream.requestsTo('POST /v1/chat/completions').length;
    const before = responsesCalls().length;
    const { data, response } = await client.responses
      .create({
        model: 'gpt',
        input: 'Tell me a story.',
        instructions: 'Be brief.',
        truncation: 'auto',
        metadata: { team: 'a' },
      })
      .withResponse();
    expectOpenApiSchema('Response', data);
    expect(responsesCalls()).toHaveLength(before + 1);
    expect(upstream.requestsTo('POST /v1/chat/completions')).toHaveLength(chatBefore);
    expect(lastResponsesBody()).toEqual({
      model: 'gpt-5.4',
      input: 'Tell me a story.',
      instructions: 'Be brief.',
      truncation: 'auto',
      metadata: { team: 'a' },
    });
    expect(responsesCalls().at(-1)!.headers.authorization).toBe('Bearer sk-upstream-openai-0000');
    expect(data.id).toMatch(/^resp_67ccd2bed1ec8190b14f964abc0542670bb6a6b452d3795b_\d+$/);
    expect(data.model).toBe('gpt');
    expect(data.output_text).toBe(exampleText);
    expect(data.usage).toMatchObject({
      input_tokens: textExample.usage.input_tokens,
      output_tokens: textExample.usage.output_tokens,
    });
    expect(response.headers.get('x-switchyard-provider')).toBe('openai');
    expect(Number(response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(costOf(textExample.usage), 10);
  });

  it('passes function tools through and answers the function_call item', async () => {
    const tools: OpenAI.Responses.Tool[] = [
      {
        type: 'function',
        name: 'get_current_weather',
        parameters: { type: 'object', properties: { location: { type: 'string' } } },
        strict: true,
      },
    ];
    const response = await client.responses.create({
      model: 'gpt',
      input: 'Weather in Boston?',
      tools,
      tool_choice: 'auto',
    });
    expectOpenApiSchema('Response', response);
    expect(lastResponsesBody().tools).toEqual(tools);
    expect(response.output[0]).toMatchObject({
      type: 'function_call',
      name: 'get_current_weather',
      call_id: 'call_unLAR8MvFNptuiZK6K6HCy5k',
    });
  });

  it('streams the upstream events unchanged (sequence numbers kept), the model rewritten to the requested id', async () => {
    const stream = await client.responses.create({ model: 'gpt', input: 'Hello!', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    for (const event of events) expectOpenApiStreamEvent(event);
    expect(lastResponsesBody()).toMatchObject({ model: 'gpt-5.4', stream: true });
    expect(events.map((e) => e.type)).toEqual(streamEvents.map((e) => e.type));
    expect(events.map((e) => e.sequence_number)).toEqual(streamEvents.map((_, i) => i));
    expect(events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('')).toBe(streamText);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.model).toBe('gpt');
    expect((events[0] as OpenAI.Responses.ResponseCreatedEvent).response.model).toBe('gpt');
  });

  it('client.responses.stream assembles the text of the upstream events', async () => {
    const stream = client.responses.stream({ model: 'gpt', input: 'Hello!' });
    let deltas = '';
    stream.on('response.output_text.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalResponse();
    expect(deltas).toBe(streamText);
    expect(final.output_text).toBe(streamText);
    expect(lastResponsesBody()).toMatchObject({ model: 'gpt-5.4', stream: true });
  });

  it('ends a stream that breaks after its first byte with an error event carrying the next sequence number', async () => {
    const lines = fixtures.chunkLines('openai/spec-examples/createresponse-streaming.chunks.txt').slice(0, 5);
    upstream.route('POST /v1/responses', { chunks: sseFrames(lines, 'typed'), resetAfterChunks: 5 });
    try {
      const res = await fetch(`${running.url}/responses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${client.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt', input: 'Hello!', stream: true }),
      });
      expect(res.status).toBe(200);
      const frames = (await res.text()).trim().split('\n\n');
      const names = frames.map((frame) => /^event: (.+)$/m.exec(frame)?.[1]);
      expect(names).toEqual([...lines.map((line) => (JSON.parse(line) as { type: string }).type), 'error']);
      const error = JSON.parse(/^data: (.+)$/m.exec(frames.at(-1)!)![1]!) as Record<string, unknown>;
      expect(error).toMatchObject({ type: 'error', sequence_number: 5, code: 'server_error' });
      expectOpenApiStreamEvent(error as { type: string });
      const sdk = await client.responses.create({ model: 'gpt', input: 'Hello!', stream: true });
      const seen: string[] = [];
      const thrown = await (async () => {
        for await (const event of sdk) seen.push(event.type);
      })().catch((e: unknown) => e);
      expect(thrown).toBeInstanceOf(OpenAI.APIError);
      expect(seen).toContain('response.output_text.delta');
      expect(seen).not.toContain('response.completed');
    } finally {
      upstream.route('POST /v1/responses', multiProviderRoutes()['POST /v1/responses']!);
    }
  });

  it('answers an upstream error with its status and OpenAI error body', async () => {
    upstream.route('POST /v1/responses', {
      status: 400,
      json: {
        error: {
          message: "Invalid 'input': empty.",
          type: 'invalid_request_error',
          param: 'input',
          code: 'empty_array',
        },
      },
    });
    try {
      const error = await client.responses.create({ model: 'gpt', input: [] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error).toMatchObject({ status: 400, param: 'input', code: 'empty_array' });
    } finally {
      upstream.route('POST /v1/responses', multiProviderRoutes()['POST /v1/responses']!);
    }
  });

  it('falls back to the next model whose deployment passes through too', async () => {
    const before = responsesCalls().length;
    const { data, response } = await client.responses.create({ model: 'flaky', input: 'hi' }).withResponse();
    expect(response.headers.get('x-switchyard-model')).toBe('gpt');
    expect(data.model).toBe('flaky');
    expect(responsesCalls()).toHaveLength(before + 1);
  });

  it('keeps the default (translate) for providers without responses: native', async () => {
    const before = responsesCalls().length;
    const response = await client.responses.create({ model: 'gpt-chat', input: 'Hello' });
    expectOpenApiSchema('Response', response);
    expect(responsesCalls()).toHaveLength(before);
    expect(upstream.requestsTo('POST /v1/chat/completions').at(-1)!.json).toMatchObject({ model: 'gpt-4.1-nano' });
  });
});

describe('stored responses with the native pass-through', () => {
  it('stores the response: retrieve, input_items and delete work, for its own key', async () => {
    const created = await client.responses.create({
      model: 'gpt',
      input: [{ role: 'user', content: 'Stored question' }],
    });
    const retrieved = await client.responses.retrieve(created.id);
    expectOpenApiSchema('Response', retrieved);
    expect(retrieved).toMatchObject({ id: created.id, model: 'gpt', output: created.output });
    const items = await client.responses.inputItems.list(created.id);
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Stored question' }],
    });
    const other = new OpenAI({ baseURL: running.url, apiKey: (await createKey('other')).key, maxRetries: 0 });
    await expect(other.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await client.responses.delete(created.id);
    await expect(client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('keeps nothing with store: false, and answers 400 previous_response_not_found for an unknown id', async () => {
    const unstored = await client.responses.create({ model: 'gpt', input: 'x', store: false });
    expect(lastResponsesBody()).toMatchObject({ store: false });
    await expect(client.responses.retrieve(unstored.id)).rejects.toMatchObject({ status: 404 });
    const before = responsesCalls().length;
    const missing = await client.responses
      .create({ model: 'gpt', input: 'x', previous_response_id: 'resp_nope' })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 400, param: 'previous_response_id', code: 'previous_response_not_found' });
    expect(responsesCalls()).toHaveLength(before);
  });

  it('continues a native response on another provider through translation with previous_response_id', async () => {
    const first = await client.responses.create({ model: 'gpt', input: 'Tell me a story.' });
    await client.responses.create({ model: 'claude', input: 'Now make it shorter.', previous_response_id: first.id });
    const sent = upstream.requestsTo('POST /v1/messages').at(-1)!.json as {
      messages: { role: string; content: unknown }[];
    };
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent.messages[0]!.content)).toContain('Tell me a story.');
    expect(JSON.stringify(sent.messages[1]!.content)).toContain('Lumina');
    expect(JSON.stringify(sent.messages[2]!.content)).toContain('Now make it shorter.');
  });

  it('continues a translated (Claude) conversation natively: the history goes upstream as input items', async () => {
    const stream = client.responses.stream({ model: 'claude', input: 'Turn one' });
    const first = await stream.finalResponse();
    const second = await client.responses.create({ model: 'gpt', input: 'Turn two', previous_response_id: first.id });
    expect(second.previous_response_id).toBe(first.id);
    const body = lastResponsesBody() as {
      input: { type?: string; role?: string; content: unknown; id?: string }[];
      previous_response_id?: unknown;
    };
    expect(body.previous_response_id).toBeUndefined();
    expect(body.input.map((item) => item.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.input[1]!.content).toEqual([
      { type: 'output_text', text: first.output_text, annotations: [], logprobs: [] },
    ]);
    expect(body.input.some((item) => 'id' in item)).toBe(false);
    expect(body.input[2]).toEqual({ role: 'user', content: 'Turn two' });
    const third = await client.responses.create({
      model: 'gpt',
      input: [{ role: 'user', content: 'Turn three' }],
      previous_response_id: second.id,
      stream: true,
    });
    for await (const _ of third) {
      // drain
    }
    const roles = (lastResponsesBody().input as { role?: string }[]).map((item) => item.role);
    expect(roles).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });
});

describe('metering of the native pass-through', () => {
  it('books tokens and cost from the Responses usage, cached input at its own price', async () => {
    // A key of its own: the other tests' calls on the file's key may still be booking when this one starts.
    const own = await createKey('native-responses-metering');
    const client = new OpenAI({ baseURL: running.url, apiKey: own.key, maxRetries: 0 });
    const usageNow = async () => {
      const res = await fetch(`${origin}/admin/usage?key=${own.id}`, {
        headers: { authorization: `Bearer ${MASTER}` },
      });
      return (
        (await res.json()) as {
          data: { requests: number; prompt_tokens: number; completion_tokens: number; cost_usd: number }[];
        }
      ).data[0]!;
    };
    const before = await usageNow();
    const cachedUsage = {
      input_tokens: 2000,
      input_tokens_details: { cached_tokens: 1500, cache_write_tokens: 0 },
      output_tokens: 100,
      output_tokens_details: { reasoning_tokens: 40 },
      total_tokens: 2100,
    };
    upstream.route('POST /v1/responses', {
      json: {
        ...fixtures.json<Record<string, unknown>>('openai/spec-examples/createresponse-text.json'),
        usage: cachedUsage,
      },
    });
    let header: string | null;
    try {
      const { response } = await client.responses
        .create({ model: 'gpt', input: 'Cached prompt', store: false })
        .withResponse();
      header = response.headers.get('x-switchyard-cost-usd');
    } finally {
      upstream.route('POST /v1/responses', multiProviderRoutes()['POST /v1/responses']!);
    }
    const cachedCost = (500 * PRICE.input + 1500 * PRICE.cached_input + 100 * PRICE.output) / 1e6;
    expect(Number(header)).toBeCloseTo(cachedCost, 10);
    await client.responses.stream({ model: 'gpt', input: 'Hello!', store: false }).finalResponse();
    await expect.poll(async () => (await usageNow()).requests).toBe(before.requests + 2);
    const after = await usageNow();
    expect(after.prompt_tokens - before.prompt_tokens).toBe(2000 + streamUsage.input_tokens);
    expect(after.completion_tokens - before.completion_tokens).toBe(100 + streamUsage.output_tokens);
    expect(after.cost_usd - before.cost_usd).toBeCloseTo(cachedCost + costOf(streamUsage), 10);
  });
});
