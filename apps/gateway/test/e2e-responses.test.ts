import { type MockUpstream, testkitFixtures } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { multiProviderRoutes, multiProviderYaml } from './helpers/multi-provider-upstream.js';
import { expectOpenApiSchema, expectOpenApiStreamEvent } from './helpers/openapi-validator.js';
import {
  recordedOpenAIStreamText as openaiStreamText,
  recordedOpenAIText as openaiText,
} from './helpers/recorded-openai.js';

const KEY = 'sk-switchyard-responses-0123456789';
const OTHER_KEY = 'sk-switchyard-responses-other-0000';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
let running: RunningServer;
let client: OpenAI;
let other: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: { multi: { routes: multiProviderRoutes() } },
    config: (url) => `
keys: ["${KEY}", "${OTHER_KEY}"]
server: { port: 0 }
${multiProviderYaml(url.multi)}`,
  },
  (gateway) => {
    ({
      upstreams: { multi: upstream },
      running,
      openai: client,
    } = gateway);
    other = gateway.openaiWithKey(OTHER_KEY);
  },
);

const lastBody = (key: string) =>
  upstream.requestsTo(key).at(-1)!.json as Record<string, unknown> & {
    messages?: { role: string; content: unknown }[];
  };

describe('POST /v1/responses through the official openai SDK', () => {
  it.each([
    ['gpt', openaiText, 'POST /v1/chat/completions'],
    ['claude', "Hello! I'm doing well", 'POST /v1/messages'],
    ['gemini', "There are **3** r's in strawberry", 'POST /v1beta/models/*:generateContent'],
  ])('answers text from %s as a response object that matches the OpenAPI schema', async (model, text, route) => {
    const response = await client.responses.create({
      model,
      input: 'Hello',
      instructions: 'Be brief.',
      metadata: { team: 'a' },
    });
    expectOpenApiSchema('Response', response);
    expect(response).toMatchObject({
      object: 'response',
      status: 'completed',
      model,
      instructions: 'Be brief.',
      metadata: { team: 'a' },
      store: true,
      error: null,
    });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output_text.startsWith(text)).toBe(true);
    expect(response.output[0]).toMatchObject({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text' }],
    });
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
    expect(response.usage!.input_tokens).toBeGreaterThan(0);
    expect(upstream.requestsTo(route).length).toBeGreaterThan(0);
  });

  it('sends instructions as a system message and maps max_output_tokens, temperature and user', async () => {
    await client.responses.create({
      model: 'gpt',
      input: 'Hi',
      instructions: 'Be brief.',
      max_output_tokens: 50,
      temperature: 0.2,
      user: 'u-1',
    });
    expect(lastBody('POST /v1/chat/completions')).toMatchObject({
      model: 'gpt-4.1-nano',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      ],
      max_completion_tokens: 50,
      temperature: 0.2,
      user: 'u-1',
    });
  });

  it('round-trips a tool call with function_call_output', async () => {
    const tools: OpenAI.Responses.FunctionTool[] = [
      {
        type: 'function',
        name: 'weather',
        description: 'Weather of a place',
        parameters: { type: 'object', properties: { location: { type: 'string' } } },
        strict: false,
      },
    ];
    const first = await client.responses.create({
      model: 'gpt',
      input: 'Weather in San Francisco?',
      tools,
      tool_choice: 'auto',
    });
    expectOpenApiSchema('Response', first);
    const call = first.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({
      type: 'function_call',
      name: 'weather',
      arguments: '{"location":"San Francisco"}',
      call_id: 'call_46427107',
      status: 'completed',
    });
    expect(lastBody('POST /v1/chat/completions').tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'weather',
          description: 'Weather of a place',
          parameters: tools[0]!.parameters,
          strict: false,
        },
      },
    ]);
    const second = await client.responses.create({
      model: 'gpt',
      tools,
      input: [
        { role: 'user', content: 'Weather in San Francisco?' },
        call!,
        { type: 'function_call_output', call_id: 'call_46427107', output: '18°C, fog' },
      ],
    });
    expectOpenApiSchema('Response', second);
    const sent = lastBody('POST /v1/chat/completions').messages!;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(sent[1]).toMatchObject({
      tool_calls: [
        {
          id: 'call_46427107',
          type: 'function',
          function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
        },
      ],
    });
    expect(sent[2]).toMatchObject({ tool_call_id: 'call_46427107', content: '18°C, fog' });
  });

  it('returns tool calls from Claude and Gemini as function_call items', async () => {
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: 'function', name: 'weather', parameters: { type: 'object', properties: {} }, strict: null },
    ];
    const claude = await client.responses.create({ model: 'claude', input: 'Update the issues', tools });
    expect(claude.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(claude.output[1]).toMatchObject({
      name: 'updateIssueList',
      call_id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
      arguments: '{}',
    });
    const gemini = await client.responses.create({ model: 'gemini', input: 'Weather?', tools });
    expectOpenApiSchema('Response', gemini);
    expect(gemini.output.find((item) => item.type === 'function_call')).toMatchObject({
      name: 'weather',
      arguments: '{"location":"San Francisco"}',
    });
  });

  it('translates text.format json_schema to response_format, and names text.format when a model cannot honour it', async () => {
    const format = {
      type: 'json_schema' as const,
      name: 'answer',
      schema: { type: 'object', properties: { a: { type: 'string' } } },
      strict: true,
    };
    const response = await client.responses.create({ model: 'gpt', input: 'JSON please', text: { format } });
    expectOpenApiSchema('Response', response);
    expect(response.text?.format).toMatchObject({ type: 'json_schema', name: 'answer' });
    expect(lastBody('POST /v1/chat/completions').response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'answer', schema: format.schema, strict: true },
    });
    await client.responses.create({ model: 'claude', input: 'JSON please', text: { format } });
    expect(JSON.stringify(lastBody('POST /v1/messages').tools)).toContain(
      '"input_schema":{"type":"object","properties":{"a":{"type":"string"}}}',
    );
    const list = { ...format, schema: { type: 'array', items: { type: 'string' } } };
    const error = await client.responses
      .create({ model: 'claude', input: 'JSON please', text: { format: list } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('text.format.schema');
    expect((error as Error).message).toContain("'text.format.schema'");
  });

  it('sends image input as an image_url part', async () => {
    const url = 'data:image/png;base64,iVBORw0KGgo=';
    await client.responses.create({
      model: 'gpt',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: url, detail: 'low' },
          ],
        },
      ],
    });
    expect(lastBody('POST /v1/chat/completions').messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url, detail: 'low' } },
        ],
      },
    ]);
  });

  it('drops hosted tools with a warning instead of a 400, and rejects unknown input items naming the field', async () => {
    const { data, response } = await client.responses
      .create({
        model: 'gpt',
        input: 'x',
        tools: [{ type: 'web_search' }, { type: 'code_interpreter', container: { type: 'auto' } }],
      })
      .withResponse();
    expect(data.status).toBe('completed');
    expect(lastBody('POST /v1/chat/completions').tools).toBeUndefined();
    expect(response.headers.get('x-switchyard-warning')).toContain(
      "unsupported_tool: the hosted tool 'web_search' was dropped",
    );
    expect(response.headers.get('x-switchyard-warning')).toContain("'code_interpreter'");
    // Streamed, the warning goes out with the stream's headers, before its first event.
    const streamed = await client.responses
      .create({ model: 'gpt', input: 'x', stream: true, tools: [{ type: 'web_search' }] })
      .withResponse();
    expect(streamed.response.headers.get('x-switchyard-warning')).toContain(
      "unsupported_tool: the hosted tool 'web_search' was dropped",
    );
    const types: string[] = [];
    for await (const event of streamed.data) types.push(event.type);
    expect(types.at(-1)).toBe('response.completed');
    const item = await client.responses
      .create({ model: 'gpt', input: [{ type: 'item_reference', id: 'x' }] })
      .catch((e: unknown) => e);
    expect(item).toMatchObject({ status: 400, param: 'input[0]' });
    const missing = await client.responses
      .create({ model: 'gpt', input: 'x', previous_response_id: 'resp_nope' })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 400, param: 'previous_response_id', code: 'previous_response_not_found' });
  });
});

describe('streamed responses', () => {
  it('streams the event sequence with sequence numbers; the assembled text equals the upstream stream', async () => {
    const stream = await client.responses.create({ model: 'gpt', input: 'Hello', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    for (const event of events) expectOpenApiStreamEvent(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = [...new Set(events.map((e) => e.type))];
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
    expect(text).toBe(openaiStreamText);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.output_text).toBe(openaiStreamText);
    expect(completed.response.usage).toMatchObject({ input_tokens: 16, output_tokens: 300, total_tokens: 316 });
  });

  it('client.responses.stream assembles text from Claude and tool calls from OpenAI', async () => {
    const stream = client.responses.stream({ model: 'claude', input: 'Hello' });
    let deltas = '';
    stream.on('response.output_text.delta', (event) => {
      deltas += event.delta;
    });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(deltas);
    expect(final.output_text).toMatch(/^Hello/);
    const tools = client.responses.stream({
      model: 'gpt',
      input: 'Weather?',
      tools: [{ type: 'function', name: 'weather', parameters: { type: 'object', properties: {} }, strict: false }],
    });
    const done: string[] = [];
    tools.on('response.function_call_arguments.done', (event) => void done.push(event.arguments));
    const withCall = await tools.finalResponse();
    expect(done).toEqual(['{"location":"San Francisco"}']);
    expect(withCall.output.find((item) => item.type === 'function_call')).toMatchObject({
      name: 'weather',
      call_id: 'call_79382389',
    });
  });

  it('ends a stream that breaks after its first byte with an error event, never as completed', async () => {
    const frames = fixtures
      .chunkLines('openai/openai-text.chunks.txt')
      .slice(0, 5)
      .map((line) => `data: ${line}\n\n`);
    upstream.route('POST /v1/chat/completions', { chunks: frames, resetAfterChunks: 5 });
    try {
      const stream = await client.responses.create({ model: 'gpt', input: 'Hello', stream: true });
      const seen: string[] = [];
      const error = await (async () => {
        for await (const event of stream) seen.push(event.type);
      })().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(seen).toContain('response.output_text.delta');
      expect(seen).not.toContain('response.completed');
    } finally {
      upstream.route('POST /v1/chat/completions', multiProviderRoutes()['POST /v1/chat/completions']!);
    }
  });
});

describe('stored responses', () => {
  it('continues a conversation on another provider with previous_response_id', async () => {
    const first = await client.responses.create({
      model: 'gpt',
      input: 'Invent a holiday.',
      instructions: 'Only for the first turn.',
    });
    await client.responses.create({ model: 'claude', input: 'Now make it shorter.', previous_response_id: first.id });
    const sent = lastBody('POST /v1/messages') as { system?: unknown; messages: { role: string; content: unknown }[] };
    expect(sent.system).toBeUndefined();
    expect(sent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(JSON.stringify(sent.messages[0]!.content)).toContain('Invent a holiday.');
    expect(JSON.stringify(sent.messages[1]!.content)).toContain('Galaxy Day');
    expect(JSON.stringify(sent.messages[2]!.content)).toContain('Now make it shorter.');
  });

  it('continues from a streamed response too, and a third turn sees the whole chain', async () => {
    const stream = client.responses.stream({ model: 'claude', input: 'Turn one' });
    const first = await stream.finalResponse();
    const second = await client.responses.create({
      model: 'gemini',
      input: 'Turn two',
      previous_response_id: first.id,
    });
    await client.responses.create({ model: 'gpt', input: 'Turn three', previous_response_id: second.id });
    const sent = lastBody('POST /v1/chat/completions').messages!;
    expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(JSON.stringify(sent[3]!.content)).toContain('strawberry');
  });

  it('retrieves, lists input items and deletes, for the key that made it only', async () => {
    const created = await client.responses.create({
      model: 'gpt',
      input: [{ role: 'user', content: 'Stored question' }],
    });
    const retrieved = await client.responses.retrieve(created.id);
    expectOpenApiSchema('Response', retrieved);
    expect(retrieved).toMatchObject({ id: created.id, status: 'completed', output: created.output });
    const items = await client.responses.inputItems.list(created.id);
    const raw = await fetch(`${running.url}/responses/${created.id}/input_items?order=asc`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expectOpenApiSchema('ResponseItemList', await raw.json());
    expect(items.data).toHaveLength(1);
    expect(items.data[0]).toMatchObject({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Stored question' }],
    });
    await expect(other.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(other.responses.delete(created.id)).rejects.toMatchObject({ status: 404 });
    await client.responses.delete(created.id);
    await expect(client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    const unstored = await client.responses.create({ model: 'gpt', input: 'x', store: false });
    await expect(client.responses.retrieve(unstored.id)).rejects.toMatchObject({ status: 404 });
  });
});
