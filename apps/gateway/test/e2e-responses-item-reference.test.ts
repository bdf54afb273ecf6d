import { createOpenAI } from '@ai-sdk/openai';
import type { MockRoute, MockUpstream } from '@switchyard/testkit';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// Issue #33: `item_reference` input items ({"type":"item_reference","id":"..."}) are resolved from the gateway's
// response store for the calling key. The AI SDK's Responses provider sends them on step 2 when `store` is true (its
// default) for the assistant text of step 1; before, a Claude model answered 400 "Input items of type
// 'item_reference' are not supported".
const KEY = 'sk-switchyard-item-ref-0123456789';
const OTHER = 'sk-switchyard-item-ref-other-000';
const TOOL_OUTPUT = 'notes.txt report.pdf';
const PREAMBLE = 'Let me look at the files.';

interface AnthropicBody {
  tools?: { name: string }[];
  messages: { role: string; content: string | { type: string; text?: string; content?: unknown }[] }[];
  stream?: boolean;
}

/** Anthropic Messages: a request with a tool result gets text quoting it; one offering `run_shell` gets text and a call. */
const anthropicRoute: MockRoute = (request) => {
  const body = request.json as AnthropicBody;
  const blocks = body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));
  const result = blocks.find((b) => b.type === 'tool_result');
  const content = result
    ? [
        {
          type: 'text',
          text: `The command printed: ${typeof result.content === 'string' ? result.content : JSON.stringify(result.content)}`,
        },
      ]
    : body.tools?.some((t) => t.name === 'run_shell')
      ? [
          { type: 'text', text: PREAMBLE },
          { type: 'tool_use', id: 'toolu_ref_1', name: 'run_shell', input: { cmd: 'ls' } },
        ]
      : [{ type: 'text', text: 'Hello there.' }];
  const message = {
    id: 'msg_ref',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content,
    stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 7 },
  };
  if (!body.stream) return { json: message };
  const events: [string, unknown][] = [
    [
      'message_start',
      {
        type: 'message_start',
        message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 12, output_tokens: 0 } },
      },
    ],
  ];
  content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      ]);
      events.push([
        'content_block_delta',
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
      ]);
    } else {
      events.push([
        'content_block_start',
        { type: 'content_block_start', index, content_block: { ...block, input: {} } },
      ]);
      events.push([
        'content_block_delta',
        {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        },
      ]);
    }
    events.push(['content_block_stop', { type: 'content_block_stop', index }]);
  });
  events.push([
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: 7 },
    },
  ]);
  events.push(['message_stop', { type: 'message_stop' }]);
  return { chunks: events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`) };
};

/** OpenAI's Responses API (native pass-through): one short text answer. */
const nativeRoute: MockRoute = (request) => ({
  json: {
    id: 'resp_native_1',
    object: 'response',
    created_at: 1_760_000_000,
    status: 'completed',
    model: (request.json as { model: string }).model,
    output: [
      {
        type: 'message',
        id: 'msg_native_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Native.', annotations: [] }],
      },
    ],
    usage: {
      input_tokens: 5,
      output_tokens: 1,
      total_tokens: 6,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  },
});

let upstream: MockUpstream;
let url: string;
let client: OpenAI;
let other: OpenAI;
useGatewayWithUpstreams(
  {
    upstreams: {
      anthropic: { routes: { 'POST /v1/messages': anthropicRoute, 'POST /openai/v1/responses': nativeRoute } },
    },
    config: (urls) => `
keys: ["${KEY}", "${OTHER}"]
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${urls.anthropic}" }
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${urls.anthropic}/openai/v1", responses: native }
models:
  - { id: claude-model, provider: anthropic, upstream: claude-sonnet-4-5 }
  - { id: native-model, provider: openai, upstream: gpt-5.4 }
routing: { max_retries: 0 }
`,
  },
  (gateway) => {
    ({
      upstreams: { anthropic: upstream },
      url,
      openai: client,
    } = gateway);
    other = gateway.openaiWithKey(OTHER);
  },
);

const lastUpstreamBody = () => upstream.requestsTo('POST /v1/messages').at(-1)!.json as AnthropicBody;

/** An AI SDK provider whose requests to the gateway are recorded (parsed JSON bodies). */
function recordingProvider() {
  const sent: { input: { type?: string; id?: string; role?: string }[]; store?: boolean }[] = [];
  const provider = createOpenAI({
    baseURL: url,
    apiKey: KEY,
    fetch: async (input, init) => {
      if (typeof init?.body === 'string') sent.push(JSON.parse(init.body));
      return fetch(input, init);
    },
  });
  return { provider, sent };
}

const runShell = (runs: unknown[]) =>
  tool({
    description: 'Runs a shell command.',
    inputSchema: jsonSchema<{ cmd: string }>({
      type: 'object',
      properties: { cmd: { type: 'string' } },
      required: ['cmd'],
    }),
    execute: async (input) => {
      runs.push(input);
      return TOOL_OUTPUT;
    },
  });

describe('AI SDK @ai-sdk/openai Responses provider (store: true, its default) on a Claude model', () => {
  it.each([
    ['generateText', false],
    ['streamText', true],
  ])(
    '%s: step 2 refers back to step 1 with item_reference, resolved from the store; the tool round trip finishes',
    async (_name, streaming) => {
      const { provider, sent } = recordingProvider();
      const runs: unknown[] = [];
      const options = {
        model: provider.responses('claude-model'),
        prompt: 'List the files.',
        tools: { run_shell: runShell(runs) },
        stopWhen: stepCountIs(3),
      };
      const text = streaming ? await streamText(options).text : (await generateText(options)).text;
      expect(runs).toEqual([{ cmd: 'ls' }]);
      expect(text).toBe(`The command printed: ${TOOL_OUTPUT}`);
      // What the AI SDK sent on step 2: a reference to step 1's text message, by the id the gateway gave it.
      expect(sent).toHaveLength(2);
      const reference = sent[1]!.input.find((item) => item.type === 'item_reference');
      expect(reference?.id).toMatch(/^msg_/);
      // The Claude upstream got step 1's text back in the assistant turn, before the tool call and its result.
      const assistant = lastUpstreamBody().messages.find((m) => m.role === 'assistant')!;
      expect(assistant.content).toEqual([
        { type: 'text', text: PREAMBLE },
        expect.objectContaining({ type: 'tool_use', id: 'toolu_ref_1', name: 'run_shell', input: { cmd: 'ls' } }),
      ]);
    },
  );
});

describe('item_reference through the official openai SDK', () => {
  it('resolves an output item and an input item of stored responses, and lists the reference as sent', async () => {
    const first = await client.responses.create({ model: 'claude-model', input: 'Say hello.' });
    const [userItem] = (await client.responses.inputItems.list(first.id)).data;
    const second = await client.responses.create({
      model: 'claude-model',
      input: [
        { type: 'item_reference', id: userItem!.id },
        { type: 'item_reference', id: first.output[0]!.id! },
        { role: 'user', content: 'Again.' },
      ],
    });
    expect(second.status).toBe('completed');
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Say hello.' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello there.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Again.' }] },
    ]);
    const listed = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(listed.data.slice(0, 2)).toEqual([
      { type: 'item_reference', id: userItem!.id },
      { type: 'item_reference', id: first.output[0]!.id },
    ]);
    // A later turn continuing `second` resolves its references again.
    await client.responses.create({ model: 'claude-model', input: 'Once more.', previous_response_id: second.id });
    expect(lastUpstreamBody().messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('answers 400 naming the reference for an unknown id and for an item of another key; nothing goes upstream', async () => {
    const mine = await client.responses.create({ model: 'claude-model', input: 'Say hello.' });
    const calls = upstream.requestsTo('POST /v1/messages').length;
    for (const [caller, id] of [
      [client, 'msg_does_not_exist'],
      [other, mine.output[0]!.id!],
    ] as const) {
      const error = await caller.responses
        .create({
          model: 'claude-model',
          input: [
            { role: 'user', content: 'Hi' },
            { type: 'item_reference', id },
          ],
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect((error as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
        type: 'invalid_request_error',
        param: 'input[1]',
        code: 'item_not_found',
        message: `Item with id '${id}' not found.`,
      });
    }
    expect(upstream.requestsTo('POST /v1/messages')).toHaveLength(calls);
  });

  it("on the native pass-through, sends the referenced items by value (the upstream never sees the gateway's ids)", async () => {
    const first = await client.responses.create({ model: 'claude-model', input: 'Say hello.' });
    await client.responses.create({
      model: 'native-model',
      input: [
        { type: 'item_reference', id: first.output[0]!.id! },
        { role: 'user', content: 'Again.' },
      ],
    });
    const sent = upstream.requestsTo('POST /openai/v1/responses').at(-1)!.json as { input: unknown[] };
    expect(sent.input).toEqual([
      {
        type: 'message',
        role: 'assistant',
        content: [expect.objectContaining({ type: 'output_text', text: 'Hello there.' })],
      },
      { role: 'user', content: 'Again.' },
    ]);
    const refused = await client.responses
      .create({ model: 'native-model', input: [{ type: 'item_reference', id: 'msg_unknown' }] })
      .catch((e: unknown) => e);
    expect((refused as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      param: 'input[0]',
      code: 'item_not_found',
    });
  });
});
