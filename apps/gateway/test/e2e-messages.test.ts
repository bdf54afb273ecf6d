import Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { multiProviderRoutes, multiProviderYaml } from './helpers/multi-provider-upstream.js';
import {
  recordedOpenAIStreamText as openaiStreamText,
  recordedOpenAIText as openaiText,
} from './helpers/recorded-openai.js';

const KEY = 'sk-switchyard-messages-0123456789';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
let running: RunningServer;
let client: Anthropic;

// The Anthropic SDK appends /v1/messages itself and sends the key as x-api-key.
useGatewayWithUpstreams(
  {
    upstreams: { multi: { routes: multiProviderRoutes() } },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
${multiProviderYaml(url.multi)}`,
  },
  (gateway) =>
    ({
      upstreams: { multi: upstream },
      running,
      anthropic: client,
    } = gateway),
);

const lastBody = (key: string) =>
  upstream.requestsTo(key).at(-1)!.json as Record<string, unknown> & { messages: { role: string; content: unknown }[] };
const tools: Anthropic.Tool[] = [
  {
    name: 'weather',
    description: 'Weather of a place',
    input_schema: { type: 'object', properties: { location: { type: 'string' } } },
  },
];

describe('POST /v1/messages translated for other providers (official @anthropic-ai/sdk)', () => {
  it.each([
    ['gpt', openaiText, 'POST /v1/chat/completions'],
    ['gemini', "There are **3** r's in strawberry", 'POST /v1beta/models/*:generateContent'],
  ])('answers %s as an Anthropic message, with system and stop sequences sent', async (model, text, route) => {
    const message = await client.messages.create({
      model,
      max_tokens: 300,
      system: 'Be brief.',
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model,
      stop_reason: 'end_turn',
      stop_sequence: null,
    });
    expect(message.id).toMatch(/^msg_/);
    expect(message.content[0]).toMatchObject({ type: 'text' });
    expect((message.content[0] as Anthropic.TextBlock).text.startsWith(text)).toBe(true);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    if (route === 'POST /v1/chat/completions') {
      expect(lastBody(route)).toMatchObject({
        model: 'gpt-4.1-nano',
        max_tokens: 300,
        stop: ['END'],
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hello' },
        ],
      });
    } else {
      expect(lastBody(route) as Record<string, unknown>).toMatchObject({
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
        generationConfig: { stopSequences: ['END'], maxOutputTokens: 300 },
      });
    }
  });

  it('round-trips a tool use with tool_result through the OpenAI mock, and returns Gemini tool calls', async () => {
    const first = await client.messages.create({
      model: 'gpt',
      max_tokens: 100,
      tools,
      messages: [{ role: 'user', content: 'Weather in San Francisco?' }],
    });
    expect(first.stop_reason).toBe('tool_use');
    const use = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(use).toMatchObject({ name: 'weather', id: 'call_46427107', input: { location: 'San Francisco' } });
    expect(lastBody('POST /v1/chat/completions').tools).toEqual([
      {
        type: 'function',
        function: { name: 'weather', description: 'Weather of a place', parameters: tools[0]!.input_schema },
      },
    ]);
    await client.messages.create({
      model: 'gpt',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'Weather in San Francisco?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18°C, fog' }] },
      ],
    });
    const sent = lastBody('POST /v1/chat/completions').messages;
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
    const gemini = await client.messages.create({
      model: 'gemini',
      max_tokens: 100,
      tools,
      tool_choice: { type: 'any' },
      messages: [{ role: 'user', content: 'Weather?' }],
    });
    expect(gemini.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: 'weather',
      input: { location: 'San Francisco' },
    });
  });

  it('sends a base64 image as a data: URL image part', async () => {
    await client.messages.create({
      model: 'gpt',
      max_tokens: 50,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    expect(lastBody('POST /v1/chat/completions').messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
    ]);
  });

  it('streams Anthropic events; the assembled text equals the upstream stream', async () => {
    const stream = client.messages.stream({
      model: 'gpt',
      max_tokens: 500,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => void types.push(event.type));
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe(openaiStreamText);
    expect((final.content[0] as Anthropic.TextBlock).text).toBe(openaiStreamText);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ input_tokens: 16, output_tokens: 300 });
    expect([...new Set(types)]).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
  });

  it('streams a tool use as input_json_delta', async () => {
    const final = await client.messages
      .stream({ model: 'gpt', max_tokens: 100, tools, messages: [{ role: 'user', content: 'Weather?' }] })
      .finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: 'weather',
      input: { location: 'San Francisco' },
    });
  });
});

describe('POST /v1/messages passed through to Anthropic', () => {
  it('sends the request as it is and answers the upstream message unchanged, thinking signature included', async () => {
    const request = {
      model: 'claude',
      max_tokens: 2000,
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      system: [{ type: 'text' as const, text: 'Be exact.', cache_control: { type: 'ephemeral' as const } }],
      messages: [{ role: 'user' as const, content: 'What is 925 / 5?' }],
    };
    const message = await client.messages.create(request);
    // Unchanged but for `model`: the id the client asked for (the upstream's is in x-switchyard-upstream-model).
    expect(message).toEqual({ ...fixtures.json<object>('anthropic/anthropic-clear-thinking.1.json'), model: 'claude' });
    expect(lastBody('POST /v1/messages')).toEqual({ ...request, model: 'claude-sonnet-4-5-20250929' });
  });

  it('streams the upstream events unchanged and the SDK assembles thinking with its signature', async () => {
    const stream = client.messages.stream({
      model: 'claude',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [{ role: 'user', content: 'What is 925 / 5?' }],
    });
    const final = await stream.finalMessage();
    const thinking = final.content.find((b) => b.type === 'thinking') as Anthropic.ThinkingBlock;
    expect(thinking.thinking.length).toBeGreaterThan(0);
    expect(thinking.signature.length).toBeGreaterThan(20);
    expect(final.content.some((b) => b.type === 'text')).toBe(true);
    const tools2 = await client.messages.create({
      model: 'claude',
      max_tokens: 100,
      tools,
      messages: [{ role: 'user', content: 'Update the issues' }],
    });
    expect(tools2.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: 'updateIssueList',
      id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
    });
  });
});

describe('errors, keys and count_tokens', () => {
  it('answers errors in Anthropic shape with Anthropic statuses', async () => {
    const invalid = await client.messages
      .create({
        model: 'gpt',
        messages: [{ role: 'user', content: 'x' }],
      } as unknown as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(Anthropic.BadRequestError);
    expect((invalid as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error' },
    });
    expect((invalid as Error).message).toContain('max_tokens');
    const unknown = await client.messages
      .create({ model: 'nope', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Anthropic.NotFoundError);
    expect((unknown as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error' },
    });
    const wrongKey = new Anthropic({
      baseURL: running.url.replace(/\/v1$/, ''),
      apiKey: 'sk-wrong-key-000000000000',
      maxRetries: 0,
    });
    const denied = await wrongKey.messages
      .create({ model: 'gpt', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(Anthropic.AuthenticationError);
    expect((denied as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    });
  });

  it("returns an Anthropic upstream's error byte for byte on the pass-through: status, body and request-id", async () => {
    const overloaded =
      '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"},"request_id":"req_011CUpstream"}';
    const invalid =
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}';
    upstream.route('POST /v1/messages', [
      {
        status: 529,
        headers: { 'content-type': 'application/json', 'request-id': 'req_011CUpstream', 'x-should-retry': 'true' },
        body: overloaded,
      },
      { status: 400, headers: { 'content-type': 'application/json', 'request-id': 'req_011CTooLong' }, body: invalid },
    ]);
    try {
      const body = { model: 'claude', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] };
      const send = () =>
        fetch(`${running.url}/messages`, {
          method: 'POST',
          headers: { 'x-api-key': KEY, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
          body: JSON.stringify(body),
        });
      const first = await send();
      expect(first.status).toBe(529);
      expect(first.headers.get('request-id')).toBe('req_011CUpstream');
      expect(first.headers.get('x-should-retry')).toBe('true');
      expect(await first.text()).toBe(overloaded);
      const second = await client.messages
        .create(body as Anthropic.MessageCreateParamsNonStreaming)
        .catch((e: unknown) => e);
      expect(second).toBeInstanceOf(Anthropic.BadRequestError);
      expect((second as InstanceType<typeof Anthropic.BadRequestError>).requestID).toBe('req_011CTooLong');
      expect((second as InstanceType<typeof Anthropic.BadRequestError>).error).toEqual(JSON.parse(invalid));
    } finally {
      upstream.route('POST /v1/messages', multiProviderRoutes()['POST /v1/messages']!);
    }
  });

  it('accepts the key as Authorization: Bearer too', async () => {
    const bearer = new Anthropic({
      baseURL: running.url.replace(/\/v1$/, ''),
      authToken: KEY,
      apiKey: null,
      maxRetries: 0,
    });
    const message = await bearer.messages.create({
      model: 'gpt',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
    });
    expect(message.type).toBe('message');
  });

  it('ends a translated stream that breaks after its first byte with an error event', async () => {
    const frames = fixtures
      .chunkLines('openai/openai-text.chunks.txt')
      .slice(0, 5)
      .map((line) => `data: ${line}\n\n`);
    upstream.route('POST /v1/chat/completions', { chunks: frames, resetAfterChunks: 5 });
    try {
      const stream = client.messages.stream({
        model: 'gpt',
        max_tokens: 50,
        messages: [{ role: 'user', content: 'Hello' }],
      });
      let text = '';
      stream.on('text', (delta) => {
        text += delta;
      });
      await expect(stream.finalMessage()).rejects.toThrow();
      expect(text.length).toBeGreaterThan(0);
    } finally {
      upstream.route('POST /v1/chat/completions', multiProviderRoutes()['POST /v1/chat/completions']!);
    }
  });

  it('counts input tokens: estimated for other providers, asked of Anthropic for Claude', async () => {
    const small = await client.messages.countTokens({ model: 'gpt', messages: [{ role: 'user', content: 'Hello' }] });
    const large = await client.messages.countTokens({
      model: 'gpt',
      system: 'You are a very helpful assistant.',
      tools,
      messages: [{ role: 'user', content: 'Hello there, how are you today?' }],
    });
    expect(small.input_tokens).toBeGreaterThan(0);
    expect(large.input_tokens).toBeGreaterThan(small.input_tokens);
    const before = upstream.requestsTo('POST /v1/messages/count_tokens').length;
    const claude = await client.beta.messages.countTokens({
      model: 'claude',
      betas: ['token-counting-2024-11-01'],
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    const sent = upstream.requestsTo('POST /v1/messages/count_tokens');
    expect(sent).toHaveLength(before + 1);
    expect(sent.at(-1)!.json).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      messages: [{ role: 'user', content: 'Hello there' }],
    });
    expect(sent.at(-1)!.headers['anthropic-beta']).toBe('token-counting-2024-11-01');
    expect(claude.input_tokens).toBe('Hello there'.length);
  });
});
