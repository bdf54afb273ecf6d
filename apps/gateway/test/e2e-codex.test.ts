import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockUpstream } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { recordAgentClientCell } from './helpers/agent-client-cells.js';
import { CODEX_VERSION, runCodex } from './helpers/codex-cli.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import {
  SCRIPTED_ENCRYPTED_REASONING,
  type ScriptedShellCall,
  scriptedAnthropicRoute,
  scriptedChatRoute,
  scriptedResponsesRoute,
} from './helpers/scripted-agent-upstream.js';

// The real Codex CLI (pinned @openai/codex) against the built gateway, one tool round trip per route: the scripted
// upstream answers the first turn with a call of Codex's shell tool running `ls`, the second with text quoting its output.
const KEY = 'sk-switchyard-codex-0123456789';
const SHELL: ScriptedShellCall = { tool: 'exec_command', arguments: { cmd: 'ls' } };
const MARKER = 'codex-marker-file.txt';
const CREATED = 'created-by-apply-patch.txt';
const PATCH: ScriptedShellCall = {
  tool: 'apply_patch',
  arguments: { input: `*** Begin Patch\n*** Add File: ${CREATED}\n+made through the gateway\n*** End Patch\n` },
  pieceLength: 9,
};

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
          'POST /patch-compat/v1/chat/completions': scriptedChatRoute(PATCH),
          'POST /patch-anthropic/v1/messages': scriptedAnthropicRoute(PATCH),
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
  patch-compat: { adapter: openai, api_key: sk-upstream-compat-0000, base_url: "${urls.scripted}/patch-compat/v1" }
  patch-anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${urls.scripted}/patch-anthropic" }
models:
  # Ids that start with a slug of Codex's own catalog get that model's tools: gpt-5.5 declares apply_patch as a freeform
  # (custom) tool; gpt-5.6-sol declares its tools in an additional_tools input item, in namespaces.
  - { id: gpt-5.5-chat, provider: patch-compat, upstream: qwen3-coder }
  - { id: gpt-5.5-claude, provider: patch-anthropic, upstream: claude-sonnet-4-5 }
  - { id: gpt-5.6-sol-claude, provider: anthropic, upstream: claude-sonnet-4-5 }
  - { id: codex-native, provider: openai, upstream: gpt-5.4 }
  - { id: codex-chat, provider: compat, upstream: qwen3-coder }
  - { id: codex-claude, provider: anthropic, upstream: claude-sonnet-4-5 }
routing: { max_retries: 0 }
`,
    startTimeoutMs: 30_000,
  },
  (gateway) =>
    ({
      upstreams: { scripted: upstream },
      url,
    } = gateway),
);

/** A fresh working directory holding the marker file, so the `ls` output is known. */
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-codex-work-'));
  writeFileSync(join(dir, MARKER), 'hello');
  return dir;
}

type Body = Record<string, unknown> & {
  tools?: { type: string; name?: string }[];
  input?: { type?: string }[];
  messages?: unknown[];
};

describe.each([
  { route: 'OpenAI Responses pass-through', model: 'codex-native', path: 'POST /openai/v1/responses' },
  { route: 'OpenAI-compatible chat (translated)', model: 'codex-chat', path: 'POST /compat/v1/chat/completions' },
  { route: 'Anthropic (translated)', model: 'codex-claude', path: 'POST /anthropic/v1/messages' },
])('Codex CLI on the $route route', ({ route, model, path }) => {
  it('finishes a shell tool round trip with exit status 0', async () => {
    upstream.clear();
    let turns = 0;
    recordAgentClientCell({
      client: 'Codex CLI',
      version: CODEX_VERSION,
      route,
      detail: () => `exit 0, ${turns} turns, exec_command ls`,
    });
    const run = await runCodex({
      baseUrl: url,
      key: KEY,
      model,
      task: 'List the files in this directory.',
      cwd: workdir(),
      timeoutMs: 90_000,
    });
    const calls = upstream.requestsTo(path);
    turns = calls.length;
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(calls).toHaveLength(2);
    // The second turn carried the real output of `ls` in the work directory, and Codex printed the quoting answer.
    expect(calls[1]!.bodyText).toContain(MARKER);
    expect(run.stdout).toContain(`The command printed:`);
    expect(run.stdout).toContain(MARKER);
  }, 120_000);
});

describe('what Codex sends, per route', () => {
  it('passes its body, tools and headers through to OpenAI, reasoning replayed by value', async () => {
    upstream.clear();
    const run = await runCodex({
      baseUrl: url,
      key: KEY,
      model: 'codex-native',
      task: 'List the files.',
      cwd: workdir(),
    });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const [first, second] = upstream.requestsTo('POST /openai/v1/responses');
    const body = first!.json as Body;
    expect(body).toMatchObject({
      model: 'gpt-5.4',
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect(typeof body.prompt_cache_key).toBe('string');
    expect(new Set(body.tools!.map((t) => t.type))).toEqual(new Set(['function', 'namespace', 'web_search']));
    expect(first!.headers.originator).toBe('codex_exec');
    expect(first!.headers['session-id']).toBe(body.prompt_cache_key);
    expect(first!.headers['x-codex-window-id']).toEqual(expect.any(String));
    expect(first!.headers['x-codex-turn-metadata']).toEqual(expect.any(String));
    expect(first!.headers.authorization).toBe('Bearer sk-upstream-openai-0000');
    const replayed = (second!.json as Body).input!.find((item) => item.type === 'reasoning') as
      | { encrypted_content?: string }
      | undefined;
    expect(replayed?.encrypted_content).toBe(SCRIPTED_ENCRYPTED_REASONING);
  }, 120_000);

  it('on translation flattens the namespace tools, drops web_search and passes prompt_cache_key to chat upstreams', async () => {
    upstream.clear();
    const run = await runCodex({
      baseUrl: url,
      key: KEY,
      model: 'codex-chat',
      task: 'List the files.',
      cwd: workdir(),
    });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const body = upstream.requestsTo('POST /compat/v1/chat/completions')[0]!.json as {
      tools: { type: string; function: { name: string } }[];
      prompt_cache_key?: unknown;
      web_search_options?: unknown;
    };
    const names = body.tools.map((t) => t.function.name);
    expect(body.tools.every((t) => t.type === 'function')).toBe(true);
    expect(names).toContain('exec_command');
    expect(names.filter((name) => name.startsWith('multi_agent_v1__')).length).toBeGreaterThan(0);
    expect(typeof body.prompt_cache_key).toBe('string');
    expect(body.web_search_options).toBeUndefined();
  }, 120_000);
});

describe.each([
  {
    route: 'OpenAI-compatible chat (translated)',
    model: 'gpt-5.5-chat',
    path: 'POST /patch-compat/v1/chat/completions',
  },
  { route: 'Anthropic (translated)', model: 'gpt-5.5-claude', path: 'POST /patch-anthropic/v1/messages' },
])('Codex CLI apply_patch (a freeform custom tool) on $route', ({ model, path }) => {
  it('gets the call back as custom_tool_call with the raw patch, applies it and exits 0', async () => {
    upstream.clear();
    const cwd = workdir();
    const run = await runCodex({ baseUrl: url, key: KEY, model, task: 'Create the file.', cwd });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const calls = upstream.requestsTo(path);
    expect(calls).toHaveLength(2);
    // Codex declared apply_patch as a custom tool; upstream it is a function with one string argument.
    expect(calls[0]!.bodyText).toContain('"apply_patch"');
    expect(calls[0]!.bodyText).toContain('*** Begin Patch');
    expect(readFileSync(join(cwd, CREATED), 'utf8')).toBe('made through the gateway\n');
    expect(run.stdout).toContain('The command printed:');
  }, 120_000);
});

describe('Codex CLI with a model that declares its tools in an additional_tools item', () => {
  it('gets them declared upstream as flattened functions (namespaces, the custom exec tool) and exits 0', async () => {
    upstream.clear();
    const run = await runCodex({
      baseUrl: url,
      key: KEY,
      model: 'gpt-5.6-sol-claude',
      task: 'Say hello.',
      cwd: workdir(),
    });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    const body = upstream.requestsTo('POST /anthropic/v1/messages')[0]!.json as {
      tools: { name: string; input_schema: { properties: Record<string, unknown> } }[];
    };
    const names = body.tools.map((t) => t.name);
    expect(names).toContain('functions__exec');
    expect(names).toContain('collaboration__spawn_agent');
    expect(Object.keys(body.tools.find((t) => t.name === 'functions__exec')!.input_schema.properties)).toEqual([
      'input',
    ]);
    expect(run.stdout).toContain('Hello from the scripted upstream.');
  }, 120_000);
});
