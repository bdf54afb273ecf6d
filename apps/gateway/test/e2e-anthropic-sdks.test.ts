import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAnthropic } from '@ai-sdk/anthropic';
import type Anthropic from '@anthropic-ai/sdk';
import {
  type MockReply,
  type MockRoute,
  type MockUpstream,
  type RecordedRequest,
  verifySigV4,
} from '@switchyard/testkit';
import { jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { recordAgentClientCell } from './helpers/agent-client-cells.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import {
  type ScriptedShellCall,
  quoteToolResult,
  scriptedAnthropicRoute,
  scriptedBedrockRoutes,
  scriptedChatRoute,
  scriptedGeminiRoutes,
} from './helpers/scripted-agent-upstream.js';

// The Anthropic SDKs with a tool round trip on each /v1/messages route: the official @anthropic-ai/sdk's
// messages.stream() helper and the AI SDK's @ai-sdk/anthropic (streamText with a tool loop). The scripted upstream of
// each provider answers the first turn with a call of `run_shell` and the second with text quoting the tool result.
const KEY = 'sk-switchyard-anthropic-sdks-0123456789';
const AWS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const SHELL: ScriptedShellCall = { tool: 'run_shell', arguments: { cmd: 'ls' } };
const TOOL_OUTPUT = 'notes.txt report.pdf';
const versionOf = (pkg: string) =>
  (
    JSON.parse(
      readFileSync(fileURLToPath(new URL(`../node_modules/${pkg}/package.json`, import.meta.url)), 'utf8'),
    ) as { version: string }
  ).version;

/** Bedrock's front door: a request without a valid SigV4 signature for the test key pair gets 403, as AWS answers. */
function signed(routes: Record<string, MockRoute>): Record<string, MockRoute> {
  return Object.fromEntries(
    Object.entries(routes).map(([key, route]) => [
      key,
      async (request: RecordedRequest, call: number): Promise<MockReply> => {
        if (!(await verifySigV4(request, AWS)).ok)
          return { status: 403, json: { message: 'The request signature we calculated does not match.' } };
        return typeof route === 'function' ? route(request, call) : (route as MockReply);
      },
    ]),
  );
}

let upstreams: Record<'anthropic' | 'openai' | 'gemini' | 'bedrock', MockUpstream>;
let origin: string;
let client: Anthropic;
useGatewayWithUpstreams(
  {
    upstreams: {
      anthropic: { routes: { 'POST /v1/messages': scriptedAnthropicRoute(SHELL) } },
      openai: { routes: { 'POST /v1/chat/completions': scriptedChatRoute(SHELL) } },
      gemini: { routes: scriptedGeminiRoutes(SHELL) },
      bedrock: { routes: signed(scriptedBedrockRoutes(SHELL)) },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${url.anthropic}" }
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${url.openai}/v1" }
  google: { adapter: google, api_key: AIza-upstream-0000, base_url: "${url.gemini}/v1beta" }
  bedrock: { adapter: bedrock, region: us-east-1, access_key_id: ${AWS.accessKeyId}, secret_access_key: "${AWS.secretAccessKey}", base_url: "${url.bedrock}", control_base_url: "${url.bedrock}" }
models:
  - { id: claude-model, provider: anthropic, upstream: claude-sonnet-4-5 }
  - { id: chat-model, provider: openai, upstream: gpt-5.1 }
  - { id: gemini-model, provider: google, upstream: gemini-3-pro-preview }
  - { id: bedrock-model, provider: bedrock, upstream: "us.anthropic.claude-sonnet-4-5-20250929-v1:0" }
routing: { max_retries: 0 }
`,
  },
  (gateway) => ({ upstreams, origin, anthropic: client } = gateway),
);

const ROUTES = [
  { route: 'Anthropic pass-through', model: 'claude-model', upstream: 'anthropic' as const },
  { route: 'OpenAI-compatible chat (translated)', model: 'chat-model', upstream: 'openai' as const },
  { route: 'Gemini (translated)', model: 'gemini-model', upstream: 'gemini' as const },
  { route: 'Claude on Bedrock (pass-through)', model: 'bedrock-model', upstream: 'bedrock' as const },
];
const shellTool: Anthropic.Tool = {
  name: 'run_shell',
  description: 'Runs a shell command.',
  input_schema: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
};

describe.each(ROUTES)('@anthropic-ai/sdk messages.stream() on the $route route', ({ route, model, upstream }) => {
  it('streams the tool_use, sends the tool_result back and gets text quoting it', async () => {
    recordAgentClientCell({
      client: '@anthropic-ai/sdk messages.stream()',
      version: versionOf('@anthropic-ai/sdk'),
      route,
      detail: () => '2 turns, tool_use round trip',
    });
    upstreams[upstream].clear();
    const question: Anthropic.MessageParam = { role: 'user', content: 'List the files.' };
    const first = client.messages.stream({ model, max_tokens: 256, tools: [shellTool], messages: [question] });
    const jsonDeltas: string[] = [];
    first.on('inputJson', (delta) => jsonDeltas.push(delta));
    const turn1 = await first.finalMessage();
    const call = turn1.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use');
    expect(call).toMatchObject({ name: 'run_shell', input: SHELL.arguments });
    expect(turn1.stop_reason).toBe('tool_use');
    expect(jsonDeltas.join('')).toBe(JSON.stringify(SHELL.arguments));
    const second = client.messages.stream({
      model,
      max_tokens: 256,
      tools: [shellTool],
      messages: [
        question,
        { role: 'assistant', content: turn1.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call!.id, content: TOOL_OUTPUT }] },
      ],
    });
    const turn2 = await second.finalMessage();
    expect(turn2.content.map((b) => (b.type === 'text' ? b.text : b.type))).toEqual([quoteToolResult(TOOL_OUTPUT)]);
    expect(turn2.stop_reason).toBe('end_turn');
    expect(turn2.usage.input_tokens).toBeGreaterThan(0);
    if (upstream === 'anthropic' || upstream === 'bedrock') {
      // Passed through: message_start's input and cache tokens are the upstream's.
      expect(turn2.usage).toMatchObject({
        input_tokens: 42,
        cache_creation_input_tokens: 4,
        cache_read_input_tokens: 8,
      });
    }
    // Two model calls upstream (a translated route may also read the provider's model list, a GET).
    expect(upstreams[upstream].requests.filter((r) => r.method === 'POST').length).toBe(2);
  });
});

describe.each(ROUTES)('AI SDK @ai-sdk/anthropic on the $route route', ({ route, model }) => {
  it('runs the tool loop (streamText) to the text quoting the tool result', async () => {
    const runs: unknown[] = [];
    recordAgentClientCell({
      client: 'AI SDK @ai-sdk/anthropic',
      version: `${versionOf('@ai-sdk/anthropic')} (ai ${versionOf('ai')})`,
      route,
      detail: () => `${runs.length} tool run, 2 steps`,
    });
    const provider = createAnthropic({ baseURL: `${origin}/v1`, apiKey: KEY });
    const result = streamText({
      model: provider(model),
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
    });
    const text = await result.text;
    expect(runs).toEqual([SHELL.arguments]);
    expect(text).toContain(TOOL_OUTPUT);
    expect(text.startsWith('The command printed:')).toBe(true);
    expect((await result.steps).length).toBe(2);
  });
});
