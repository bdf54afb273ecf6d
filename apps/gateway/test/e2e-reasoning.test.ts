import {
  type MockReply,
  type MockUpstream,
  type RecordedRequest,
  sseFrames,
  testkitFixtures,
} from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

/**
 * Reasoning models end to end with the official `openai` SDK: thinking streams from Claude and Gemini arrive as
 * `reasoning_content` deltas before the content, and three-turn tool conversations with thinking round-trip the
 * signatures through `reasoning_details` on the assistant message the client sends back. The mock upstreams enforce
 * each provider's documented rule (Anthropic: an assistant turn with tool_use must start with its thinking block when
 * thinking is on; Gemini 3: a function call part must carry its thought signature) and answer 400 like the real API
 * when it is broken.
 */
const KEY = 'sk-switchyard-reasoning-0123456789';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
let client: OpenAI;

type AnthropicBlock = { type: string; [key: string]: unknown };
type AnthropicBody = {
  stream?: boolean;
  thinking?: { type: string };
  messages: { role: string; content: AnthropicBlock[] }[];
};
type GeminiBody = {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  generationConfig?: { thinkingConfig?: unknown };
};

const clearThinking = fixtures.json<{ content: AnthropicBlock[] } & Record<string, unknown>>(
  'anthropic/anthropic-clear-thinking.1.json',
);
const toolNoArgs = fixtures.json<{ content: AnthropicBlock[] } & Record<string, unknown>>(
  'anthropic/anthropic-tool-no-args.json',
);
/** Turn 1 of Claude: the recorded thinking block (with its signature) followed by the recorded tool_use block. */
const claudeToolTurn = {
  ...toolNoArgs,
  content: [clearThinking.content[0]!, ...toolNoArgs.content.filter((b) => b.type === 'tool_use')],
  stop_reason: 'tool_use',
};

function anthropicError(message: string): MockReply {
  return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message } } };
}

/** Anthropic's rule: with thinking on, an assistant turn holding tool_use starts with a thinking block (signed). */
function claudeReply(request: RecordedRequest): MockReply {
  const body = request.json as AnthropicBody;
  if (body.thinking?.type === 'enabled') {
    for (const message of body.messages) {
      if (message.role !== 'assistant' || !message.content.some((b) => b.type === 'tool_use')) continue;
      const first = message.content[0]!;
      if (first.type !== 'thinking' && first.type !== 'redacted_thinking')
        return anthropicError('Expected `thinking` or `redacted_thinking`, but found `tool_use`.');
      if (first.type === 'thinking' && !first.signature) return anthropicError('thinking.signature: Field required');
    }
  }
  if (body.stream)
    return { chunks: sseFrames(fixtures.chunkLines('anthropic/anthropic-clear-thinking.1.chunks.txt'), 'typed') };
  const last = body.messages.at(-1)!;
  return {
    json:
      last.content.some((b) => b.type === 'tool_result') || body.messages.length > 1 ? clearThinking : claudeToolTurn,
  };
}

/** Gemini 3's rule: every functionCall part of a model turn carries its thoughtSignature. */
function geminiReply(request: RecordedRequest, stream: boolean): MockReply {
  const body = request.json as GeminiBody;
  for (const content of body.contents) {
    if (content.role === 'model' && content.parts.some((p) => p.functionCall && !p.thoughtSignature)) {
      return {
        status: 400,
        json: {
          error: {
            code: 400,
            message: 'Function call is missing a thought_signature in functionCall parts.',
            status: 'INVALID_ARGUMENT',
          },
        },
      };
    }
  }
  if (stream && (body.contents[0]?.parts[0] as { text?: string } | undefined)?.text === 'Fail mid-stream.') {
    return { body: fixtures.text('google/streaming-failure-error-mid-stream.txt') };
  }
  if (stream) return { body: fixtures.text('google/streaming-success-thinking-reply-thought-summary.txt') };
  const turns = body.contents.filter((c) => c.role === 'model').length;
  const name = [
    'google/unary-success-thinking-function-call-thought-summary-signature.json',
    'google/google-reasoning-gemini3.json',
    'google/google-text.json',
  ][Math.min(turns, 2)]!;
  return { json: fixtures.json(name) };
}

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /v1/messages': claudeReply,
          'POST /v1beta/models/*:generateContent': (request) => geminiReply(request, false),
          'POST /v1beta/models/*:streamGenerateContent': (request) => geminiReply(request, true),
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-e2e-secret-abcdef, base_url: "${url.upstream}" }
  google: { adapter: google, api_key: AIza-e2e-secret-000000, base_url: "${url.upstream}/v1beta" }
models:
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
  - { id: gemini, provider: google, upstream: gemini-3-pro-preview }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      openai: client,
    } = gateway),
);

type ReasoningDelta = {
  content?: string | null;
  reasoning_content?: string | null;
  reasoning_details?: Record<string, unknown>[];
};

async function readThinkingStream(model: string) {
  const { data: stream, response } = await client.chat.completions
    .create({
      model,
      stream: true,
      reasoning_effort: 'high',
      max_completion_tokens: 2000,
      messages: [{ role: 'user', content: 'Think, then answer.' }],
    })
    .withResponse();
  const order: ('reasoning' | 'content')[] = [];
  let reasoning = '';
  let content = '';
  const details: Record<string, unknown>[] = [];
  for await (const chunk of stream) {
    const delta = (chunk.choices[0]?.delta ?? {}) as ReasoningDelta;
    if (delta.reasoning_content) {
      reasoning += delta.reasoning_content;
      order.push('reasoning');
    }
    if (delta.content) {
      content += delta.content;
      order.push('content');
    }
    details.push(...(delta.reasoning_details ?? []));
  }
  return { reasoning, content, details, order, warning: response.headers.get('x-switchyard-warning') };
}

describe('thinking streams through the openai SDK', () => {
  it('Claude: reasoning_content deltas before the content, text not duplicated, the signature in reasoning_details', async () => {
    const out = await readThinkingStream('claude');
    expect(out.reasoning).toBe('The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185');
    expect(out.content).toBe('925 ÷ 5 = 185');
    expect(out.order.indexOf('content')).toBe(out.order.lastIndexOf('reasoning') + 1);
    expect(out.details).toEqual([
      expect.objectContaining({
        type: 'reasoning.text',
        format: 'anthropic-claude-v1',
        signature: expect.stringMatching(/^EvQBCkYI/),
      }),
    ]);
    const sent = upstream.requestsTo('POST /v1/messages').at(-1)!.json as { thinking: unknown; max_tokens: number };
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    expect(sent.max_tokens).toBe(18384);
    expect(out.warning).toContain('max_tokens_raised');
  });

  it('Gemini: thought summaries as reasoning_content deltas before the content, text not duplicated', async () => {
    const out = await readThinkingStream('gemini');
    expect(out.reasoning).toMatch(/^\*\*Exploring Sky Color\*\*/);
    expect(out.content.length).toBeGreaterThan(100);
    expect(out.content).not.toContain('Exploring Sky Color');
    expect(out.reasoning).not.toContain(out.content.slice(0, 40));
    expect(out.order.indexOf('content')).toBe(out.order.lastIndexOf('reasoning') + 1);
    const sent = upstream.requestsTo('POST /v1beta/models/*:streamGenerateContent').at(-1)!.json as GeminiBody;
    expect(sent.generationConfig?.thinkingConfig).toEqual({ thinkingLevel: 'high', includeThoughts: true });
  });
});

describe('a Gemini stream that fails after its first events (recording)', () => {
  it('reaches the openai SDK as an error after the text it already got, never as a clean finish', async () => {
    const stream = await client.chat.completions.create({
      model: 'gemini',
      stream: true,
      messages: [{ role: 'user', content: 'Fail mid-stream.' }],
    });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    })().catch((e: unknown) => e);
    expect(text).toBe('First Second ');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toContain('The operation was cancelled.');
  });
});

type AssistantWithReasoning = OpenAI.ChatCompletionMessage & {
  reasoning_content?: string;
  reasoning_details?: Record<string, unknown>[];
};

/** The assistant message as a client sends it back: OpenAI's fields plus `reasoning_details`, copied as received. */
function echo(message: AssistantWithReasoning): OpenAI.ChatCompletionMessageParam {
  return {
    role: 'assistant',
    content: message.content,
    ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
    reasoning_details: message.reasoning_details,
  } as OpenAI.ChatCompletionMessageParam;
}

async function threeTurns(model: string) {
  const tools: OpenAI.ChatCompletionTool[] = [
    {
      type: 'function',
      function: { name: 'now', description: 'The current time', parameters: { type: 'object', properties: {} } },
    },
  ];
  const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'How many days until New Year?' }];
  const ask = async () =>
    (await client.chat.completions.create({ model, messages, tools, reasoning_effort: 'low' })).choices[0]!;
  const first = await ask();
  expect(first.finish_reason).toBe('tool_calls');
  const firstMessage = first.message as AssistantWithReasoning;
  expect(firstMessage.reasoning_details?.length).toBeGreaterThan(0);
  messages.push(echo(firstMessage), {
    role: 'tool',
    tool_call_id: first.message.tool_calls![0]!.id,
    content: '{"now":"2026-11-22"}',
  });
  const second = await ask();
  const secondMessage = second.message as AssistantWithReasoning;
  expect(second.message.content).toBeTruthy();
  messages.push(echo(secondMessage), { role: 'user', content: 'And until Easter?' });
  const third = await ask();
  expect(third.message.content).toBeTruthy();
  return { firstMessage, secondMessage };
}

describe('three-turn tool conversations with thinking', () => {
  it('Claude: the signed thinking block goes back before the tool_use on every later turn, and each turn is accepted', async () => {
    const { firstMessage } = await threeTurns('claude');
    const signature = (clearThinking.content[0]! as AnthropicBlock & { signature: string }).signature;
    expect(firstMessage.reasoning_details).toEqual([expect.objectContaining({ type: 'reasoning.text', signature })]);
    const requests = upstream.requestsTo('POST /v1/messages').slice(-3);
    for (const request of requests.slice(1)) {
      const assistant = (request.json as AnthropicBody).messages[1]!;
      expect(assistant.content[0]).toEqual({
        type: 'thinking',
        thinking: (clearThinking.content[0]! as AnthropicBlock & { thinking: string }).thinking,
        signature,
      });
      expect(assistant.content[1]).toMatchObject({ type: 'tool_use', id: firstMessage.tool_calls![0]!.id });
    }
  });

  it('Gemini: the thought signatures go back on the function call and on the text part, and each turn is accepted', async () => {
    const { firstMessage, secondMessage } = await threeTurns('gemini');
    expect(firstMessage.reasoning_content).toMatch(/New Year's Eve/);
    const requests = upstream.requestsTo('POST /v1beta/models/*:generateContent').slice(-3);
    const last = requests[2]!.json as GeminiBody;
    const modelTurns = last.contents.filter((c) => c.role === 'model');
    expect(modelTurns[0]!.parts).toEqual([
      { functionCall: { name: 'now', args: {} }, thoughtSignature: firstMessage.reasoning_details![0]!.data },
    ]);
    expect(modelTurns[1]!.parts).toEqual([
      { text: secondMessage.content, thoughtSignature: secondMessage.reasoning_details![0]!.data },
    ]);
  });

  it('Claude without the reasoning_details: the upstream refuses the turn, and the client sees its 400', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } },
    ];
    const first = (
      await client.chat.completions.create({
        model: 'claude',
        messages: [{ role: 'user', content: 'Time?' }],
        tools,
        reasoning_effort: 'low',
      })
    ).choices[0]!.message;
    const error = await client.chat.completions
      .create({
        model: 'claude',
        tools,
        reasoning_effort: 'low',
        messages: [
          { role: 'user', content: 'Time?' },
          { role: 'assistant', content: null, tool_calls: first.tool_calls },
          { role: 'tool', tool_call_id: first.tool_calls![0]!.id, content: 'noon' },
        ],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).message).toContain('Expected `thinking`');
  });
});
