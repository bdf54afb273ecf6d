import type { MockUpstream } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { expectOpenApiSchema, expectOpenApiStreamEvent } from './helpers/openapi-validator.js';
import {
  type ScriptedShellCall,
  scriptedAnthropicRoute,
  scriptedChatRoute,
  scriptedResponsesRoute,
} from './helpers/scripted-agent-upstream.js';

// Compliance of POST /v1/responses with OpenAI's published schemas (shared/openai-openapi.yaml, extracted in testkit):
// every response object and every streamed event, read off the wire (no SDK in between), on the native pass-through
// and on both translations, for text, streaming, a system prompt, tools, streamed tools, image input and multi-turn.
const KEY = 'sk-switchyard-compliance-0123456789';
const SHELL: ScriptedShellCall = { tool: 'run_shell', arguments: { cmd: 'ls' } };
const IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let upstream: MockUpstream;
let url: string;
useGatewayWithUpstreams(
  {
    upstreams: {
      scripted: {
        routes: {
          'POST /openai/v1/responses': scriptedResponsesRoute(SHELL),
          'POST /compat/v1/chat/completions': scriptedChatRoute(SHELL),
          'POST /anthropic/v1/messages': scriptedAnthropicRoute(SHELL),
        },
      },
    },
    config: (urls) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${urls.scripted}/openai/v1", responses: native }
  compat: { adapter: openai, api_key: sk-upstream-compat-0000, base_url: "${urls.scripted}/compat/v1" }
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${urls.scripted}/anthropic" }
models:
  - { id: native-model, provider: openai, upstream: gpt-5.4 }
  - { id: chat-model, provider: compat, upstream: qwen3-coder }
  - { id: claude-model, provider: anthropic, upstream: claude-sonnet-4-5 }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { scripted: upstream },
      url,
    } = gateway),
);

type ResponseJson = {
  id: string;
  status: string;
  output: { type: string; call_id?: string }[];
  usage?: Record<string, unknown>;
} & Record<string, unknown>;
type StreamEvent = { type: string; sequence_number: number; response?: ResponseJson } & Record<string, unknown>;

async function post(body: Record<string, unknown>): Promise<Response> {
  const response = await fetch(`${url}/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response;
}

/** A JSON answer, validated as a `Response`, with `usage` details present. */
async function create(body: Record<string, unknown>): Promise<ResponseJson> {
  const json = (await (await post(body)).json()) as ResponseJson;
  expectOpenApiSchema('Response', json);
  expect(json.usage).toMatchObject({
    input_tokens_details: { cached_tokens: expect.any(Number) },
    output_tokens_details: { reasoning_tokens: expect.any(Number) },
  });
  return json;
}

/** A streamed answer read off the wire: every event validated against its schema, `event:` equal to `type`, sequence numbers from 0. */
async function stream(body: Record<string, unknown>): Promise<StreamEvent[]> {
  const text = await (await post({ ...body, stream: true })).text();
  const events = text
    .split('\n\n')
    .filter((frame) => frame.includes('data: '))
    .map((frame) => {
      const name = /^event: (.+)$/m.exec(frame)?.[1];
      const event = JSON.parse(/^data: (.+)$/m.exec(frame)![1]!) as StreamEvent;
      expect(name).toBe(event.type);
      return event;
    });
  for (const event of events) expectOpenApiStreamEvent(event);
  expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
  const last = events.at(-1)!;
  expect(last.type).toBe('response.completed');
  expect(last.response!.usage).toMatchObject({
    input_tokens_details: { cached_tokens: expect.any(Number) },
    output_tokens_details: { reasoning_tokens: expect.any(Number) },
  });
  return events;
}

const TOOLS = [
  {
    type: 'function',
    name: 'run_shell',
    description: 'Runs a shell command.',
    strict: false,
    parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
  },
];
const ECHOED = {
  prompt_cache_key: 'cache-key-1',
  safety_identifier: 'user-hash-1',
  service_tier: 'flex',
  top_logprobs: 0,
  max_tool_calls: 4,
};

describe.each([
  { route: 'OpenAI Responses pass-through', model: 'native-model' },
  { route: 'chat completions translation', model: 'chat-model' },
  { route: 'Anthropic translation', model: 'claude-model' },
])('POST /v1/responses complies with OpenAI schemas on the $route', ({ model }) => {
  it('text', async () => {
    const response = await create({ model, input: 'Hello', store: false, ...ECHOED });
    expect(response).toMatchObject({ status: 'completed', model, ...ECHOED, background: false });
  });

  it('streaming text', async () => {
    const events = await stream({ model, input: 'Hello', store: false, ...ECHOED });
    expect(events.map((e) => e.type)).toContain('response.output_text.delta');
    for (const event of events.filter((e) => e.response)) expect(event.response).toMatchObject({ model, ...ECHOED });
  });

  it('system prompt (instructions and a developer message)', async () => {
    const response = await create({
      model,
      instructions: 'Be brief.',
      input: [
        { role: 'developer', content: 'Answer in English.' },
        { role: 'user', content: 'Hello' },
      ],
      store: false,
    });
    expect(response.instructions).toBe('Be brief.');
  });

  it('tools', async () => {
    const response = await create({ model, input: 'List the files.', tools: TOOLS, store: false });
    expect(response.output.find((item) => item.type === 'function_call')).toMatchObject({
      name: 'run_shell',
      arguments: '{"cmd":"ls"}',
    });
  });

  it('streamed tools', async () => {
    const events = await stream({ model, input: 'List the files.', tools: TOOLS, store: false });
    expect(events.map((e) => e.type)).toContain('response.function_call_arguments.done');
  });

  it('image input', async () => {
    await create({
      model,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: IMAGE, detail: 'low' },
          ],
        },
      ],
      store: false,
    });
  });

  it('multi-turn: a tool result by value, then previous_response_id, streamed and not', async () => {
    const first = await create({ model, input: 'List the files.', tools: TOOLS });
    const call = first.output.find((item) => item.type === 'function_call')!;
    const events = await stream({
      model,
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'a.txt' }],
      tools: TOOLS,
    });
    const second = events.at(-1)!.response!;
    expect(second.previous_response_id).toBe(first.id);
    const third = await create({ model, previous_response_id: second.id, input: 'Thanks.', tools: TOOLS });
    expect(third.status).toBe('completed');
    const retrieved = (await (
      await fetch(`${url}/responses/${third.id}`, { headers: { authorization: `Bearer ${KEY}` } })
    ).json()) as unknown;
    expectOpenApiSchema('Response', retrieved);
  });
});
