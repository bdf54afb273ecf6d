import type { MockUpstream } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { expectOpenApiStreamEvent } from './helpers/openapi-validator.js';
import {
  type ScriptedShellCall,
  scriptedAnthropicRoute,
  scriptedChatRoute,
} from './helpers/scripted-agent-upstream.js';

// A freeform custom tool (Codex's apply_patch) on the translated /v1/responses routes, streamed through the openai
// SDK's responses.stream(): the upstream streams the function's JSON arguments in 7-character fragments (escapes split
// across fragments), and the client gets response.custom_tool_call_input.delta events as they arrive.
const KEY = 'sk-switchyard-custom-tool-0123456789';
const PATCH_TEXT = '*** Begin Patch\n*** Add File: "quoted" é.txt\n+a\\b\ttab 😀\n*** End Patch\n';
const PATCH: ScriptedShellCall = { tool: 'apply_patch', arguments: { input: PATCH_TEXT }, pieceLength: 7 };

let upstream: MockUpstream;
let client: OpenAI;
useGatewayWithUpstreams(
  {
    upstreams: {
      scripted: {
        routes: {
          'POST /compat/v1/chat/completions': scriptedChatRoute(PATCH),
          'POST /anthropic/v1/messages': scriptedAnthropicRoute(PATCH),
        },
      },
    },
    config: (urls) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  compat: { adapter: openai, api_key: sk-upstream-compat-0000, base_url: "${urls.scripted}/compat/v1" }
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${urls.scripted}/anthropic" }
models:
  - { id: patch-chat, provider: compat, upstream: qwen3-coder }
  - { id: patch-claude, provider: anthropic, upstream: claude-sonnet-4-5 }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { scripted: upstream },
      openai: client,
    } = gateway),
);

const tools: OpenAI.Responses.Tool[] = [
  {
    type: 'custom',
    name: 'apply_patch',
    description: 'Edit files with a patch.',
    format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/s' },
  },
];

describe.each([
  { route: 'OpenAI-compatible chat (translated)', model: 'patch-chat', path: 'POST /compat/v1/chat/completions' },
  { route: 'Anthropic (translated)', model: 'patch-claude', path: 'POST /anthropic/v1/messages' },
])('a custom tool call streamed on the $route route', ({ model, path }) => {
  it('sends custom_tool_call_input.delta incrementally, concatenating to the exact .done input', async () => {
    upstream.clear();
    const stream = client.responses.stream({ model, input: 'Add the file.', tools });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) {
      expectOpenApiStreamEvent(event);
      events.push(event);
    }
    const final = await stream.finalResponse();
    expect(upstream.requestsTo(path)).toHaveLength(1);
    const fragments = Math.ceil(JSON.stringify({ input: PATCH_TEXT }).length / PATCH.pieceLength!);
    const deltas = events.filter((e) => e.type === 'response.custom_tool_call_input.delta').map((e) => e.delta);
    const done = events.find((e) => e.type === 'response.custom_tool_call_input.done');
    // One delta per upstream fragment that carried input text (the first fragments hold only `{"input":"`).
    expect(deltas.length).toBeGreaterThanOrEqual(fragments - 2);
    expect(deltas.join('')).toBe(PATCH_TEXT);
    expect(done?.input).toBe(PATCH_TEXT);
    // The deltas come before .done, and .done before the item's output_item.done.
    const types = events.map((e) => e.type);
    expect(types.lastIndexOf('response.custom_tool_call_input.delta')).toBeLessThan(
      types.indexOf('response.custom_tool_call_input.done'),
    );
    expect(types.indexOf('response.custom_tool_call_input.done')).toBeLessThan(
      types.indexOf('response.output_item.done'),
    );
    expect(final.output).toEqual([
      expect.objectContaining({
        type: 'custom_tool_call',
        name: 'apply_patch',
        call_id: expect.any(String),
        input: PATCH_TEXT,
        status: 'completed',
      }),
    ]);
  });
});
