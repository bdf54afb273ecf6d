import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOpenAI } from '@ai-sdk/openai';
import type { MockUpstream } from '@switchyard/testkit';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { recordAgentClientCell } from './helpers/agent-client-cells.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { expectOpenApiSchema, expectOpenApiStreamEvent } from './helpers/openapi-validator.js';
import {
  type ScriptedShellCall,
  quoteToolResult,
  scriptedAnthropicRoute,
  scriptedChatRoute,
  scriptedResponsesRoute,
} from './helpers/scripted-agent-upstream.js';

// The official SDKs' stream helpers with a tool round trip on each route: the scripted upstream answers the first turn
// with a call of `run_shell` and the second with text quoting the tool result the test sends back.
const KEY = 'sk-switchyard-sdk-round-trips-0123456789';
const SHELL: ScriptedShellCall = { tool: 'run_shell', arguments: { cmd: 'ls' } };
const TOOL_OUTPUT = 'notes.txt report.pdf';
const versionOf = (pkg: string) =>
  (
    JSON.parse(
      readFileSync(fileURLToPath(new URL(`../node_modules/${pkg}/package.json`, import.meta.url)), 'utf8'),
    ) as { version: string }
  ).version;

let upstream: MockUpstream;
let url: string;
let client: OpenAI;
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
      openai: client,
    } = gateway),
);

// cachedTokens: what each scripted upstream reports as cached input (Anthropic's cache_read_input_tokens is 8).
const RESPONSES_ROUTES = [
  { route: 'OpenAI Responses pass-through', model: 'native-model', cachedTokens: 0 },
  { route: 'OpenAI-compatible chat (translated)', model: 'chat-model', cachedTokens: 0 },
  { route: 'Anthropic (translated)', model: 'claude-model', cachedTokens: 8 },
];
const shellTool = {
  type: 'function' as const,
  name: 'run_shell',
  description: 'Runs a shell command.',
  strict: false,
  parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
};

describe.each(RESPONSES_ROUTES)(
  'openai SDK responses.stream() on the $route route',
  ({ route, model, cachedTokens }) => {
    it('calls the tool, sends its output back and gets text quoting it; every event and response validates', async () => {
      recordAgentClientCell({
        client: 'openai SDK responses.stream()',
        version: versionOf('openai'),
        route,
        detail: () => '2 turns, function tool round trip',
      });
      const events: { type: string }[] = [];
      const first = client.responses.stream({ model, input: 'List the files.', tools: [shellTool], store: false });
      first.on('event', (event) => events.push(event));
      const turn1 = await first.finalResponse();
      const found = turn1.output.find((item) => item.type === 'function_call');
      const call =
        found?.type === 'function_call'
          ? { type: 'function_call' as const, call_id: found.call_id, name: found.name, arguments: found.arguments }
          : undefined;
      expect(call).toMatchObject({ name: 'run_shell', arguments: JSON.stringify(SHELL.arguments) });
      const second = client.responses.stream({
        model,
        input: [
          { role: 'user', content: 'List the files.' },
          call!,
          { type: 'function_call_output', call_id: call!.call_id, output: TOOL_OUTPUT },
        ],
        tools: [shellTool],
        store: false,
      });
      second.on('event', (event) => events.push(event));
      const turn2 = await second.finalResponse();
      expect(turn2.output_text).toBe(quoteToolResult(TOOL_OUTPUT));
      for (const event of events) expectOpenApiStreamEvent(event);
      expectOpenApiSchema('Response', turn1);
      expectOpenApiSchema('Response', turn2);
      expect(turn2.usage).toMatchObject({
        input_tokens_details: { cached_tokens: cachedTokens },
        output_tokens_details: { reasoning_tokens: 0 },
      });
    });
  },
);

describe.each([
  { route: 'OpenAI-compatible chat (translated)', model: 'chat-model' },
  { route: 'Anthropic (translated)', model: 'claude-model' },
])('openai SDK chat.completions.stream() on the $route route', ({ route, model }) => {
  it('calls the tool, sends its output back and gets text quoting it', async () => {
    recordAgentClientCell({
      client: 'openai SDK chat.completions.stream()',
      version: versionOf('openai'),
      route,
      detail: () => '2 turns, function tool round trip',
    });
    const tools: OpenAI.Chat.ChatCompletionTool[] = [
      {
        type: 'function',
        function: { name: shellTool.name, description: shellTool.description, parameters: shellTool.parameters },
      },
    ];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'List the files.' }];
    const turn1 = await client.chat.completions.stream({ model, messages, tools }).finalChatCompletion();
    const call = turn1.choices[0]!.message.tool_calls?.[0] as
      | OpenAI.Chat.ChatCompletionMessageFunctionToolCall
      | undefined;
    expect(call?.function).toEqual({ name: 'run_shell', arguments: JSON.stringify(SHELL.arguments) });
    messages.push(turn1.choices[0]!.message, { role: 'tool', tool_call_id: call!.id, content: TOOL_OUTPUT });
    const turn2 = await client.chat.completions.stream({ model, messages, tools }).finalChatCompletion();
    expect(turn2.choices[0]!.message.content).toBe(quoteToolResult(TOOL_OUTPUT));
  });
});

describe.each(
  RESPONSES_ROUTES.flatMap((r) => [
    { ...r, store: true },
    { ...r, store: false },
  ]),
)('AI SDK @ai-sdk/openai Responses provider on the $route route (store: $store)', ({ route, model, store }) => {
  it('runs the tool loop (streamText) to the text quoting the tool result', async () => {
    const runs: unknown[] = [];
    // store: true is the AI SDK's default: step 2 refers back to step 1's items with item_reference.
    if (store) {
      recordAgentClientCell({
        client: 'AI SDK @ai-sdk/openai (Responses)',
        version: `${versionOf('@ai-sdk/openai')} (ai ${versionOf('ai')})`,
        route,
        detail: () =>
          `${runs.length} tool run, 2 steps, store: true${model === 'native-model' ? ', reasoning by item_reference' : ''}`,
      });
    }
    const sent: string[] = [];
    const provider = createOpenAI({
      baseURL: url,
      apiKey: KEY,
      fetch: (input, init) => {
        sent.push(String(init?.body ?? ''));
        return fetch(input, init);
      },
    });
    const result = streamText({
      model: provider.responses(model),
      prompt: 'List the files.',
      tools: {
        run_shell: tool({
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
        }),
      },
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { store } },
    });
    const text = await result.text;
    expect(runs).toEqual([SHELL.arguments]);
    // The second step's text quotes the tool output the AI SDK sent back (it sends a string result as it is).
    expect(text).toBe(quoteToolResult(TOOL_OUTPUT));
    expect((await result.steps).length).toBe(2);
    // What the AI SDK sent for step 2: with store it refers to step 1's reasoning item (only the pass-through's upstream
    // returns one) by item_reference, resolved from the gateway's store; function calls go by value either way.
    expect(sent).toHaveLength(2);
    expect(sent[1]!.includes('"item_reference"')).toBe(store && model === 'native-model');
  });
});
