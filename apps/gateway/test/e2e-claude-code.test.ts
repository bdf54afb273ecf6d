import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type MockReply,
  type MockRoute,
  type MockUpstream,
  type RecordedRequest,
  verifySigV4,
} from '@switchyard/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdminKey } from './helpers/admin-keys.js';
import { recordAgentClientCell } from './helpers/agent-client-cells.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { type ClaudeCodeResult, claudeCodeVersion, runClaudeCode } from './helpers/run-claude-code.js';
import {
  type ScriptedShellCall,
  scriptedAnthropicRoute,
  scriptedBedrockRoutes,
  scriptedChatRoute,
  scriptedGeminiRoutes,
} from './helpers/scripted-agent-upstream.js';

// The pinned Claude Code (a dev dependency) run as a process against the gateway, on each route it can take, with a
// scripted upstream per provider: the turn offering tools gets one call to Bash running `ls`, the turn carrying its
// result a text quoting it. Each test writes its agent-client matrix cell.

const MASTER = 'sk-master-claude-code-0123456789';
const AWS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const BEDROCK_CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const TASK = 'List the files in the current directory with ls, then tell me what they are.';

/** Claude Code's shell tool and the call the scripted upstreams make of it. */
const BASH: ScriptedShellCall = { tool: 'Bash', arguments: { command: 'ls', description: 'List files' } };

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
let key: string;
let version: string;
const dir = mkdtempSync(join(tmpdir(), 'switchyard-claude-code-'));

useGatewayWithUpstreams(
  {
    upstreams: {
      anthropic: { routes: { 'POST /v1/messages': scriptedAnthropicRoute(BASH) } },
      openai: { routes: { 'POST /v1/chat/completions': scriptedChatRoute(BASH) } },
      gemini: { routes: scriptedGeminiRoutes(BASH) },
      bedrock: { routes: signed(scriptedBedrockRoutes(BASH)) },
    },
    config: (url) => `
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'gateway.db')}" }
server: { port: 0 }
providers:
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${url.anthropic}", headers: { anthropic-beta: "config-beta-2026-01-01" } }
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${url.openai}/v1" }
  google: { adapter: google, api_key: AIza-upstream-0000, base_url: "${url.gemini}/v1beta" }
  bedrock: { adapter: bedrock, region: us-east-1, access_key_id: ${AWS.accessKeyId}, secret_access_key: "${AWS.secretAccessKey}", base_url: "${url.bedrock}", control_base_url: "${url.bedrock}" }
models:
  - { id: claude-opus-5-5, provider: anthropic, upstream: claude-opus-5-5, price: { input: 5, output: 25 } }
  - { id: gpt-agent, provider: openai, upstream: gpt-5.1 }
  - { id: gemini-agent, provider: google, upstream: gemini-3-pro-preview }
  - { id: claude-bedrock, provider: bedrock, upstream: "${BEDROCK_CLAUDE}" }
routing: { max_retries: 0 }
`,
    clearBetweenTests: true,
  },
  (gateway) => ({ upstreams, origin } = gateway),
);

beforeAll(async () => {
  key = (await createAdminKey(origin, MASTER, { name: 'claude-code' })).key;
  version = await claudeCodeVersion();
});

/** Runs Claude Code on `model` and checks it finished its tool round trip: exit 0, 2 turns, the listing quoted. */
async function roundTrip(model: string): Promise<ClaudeCodeResult> {
  const result = await runClaudeCode({ baseURL: origin, apiKey: key, model, task: TASK });
  const context = `exit ${result.code}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-1500)}`;
  expect(result.code, context).toBe(0);
  expect(result.json, context).toMatchObject({ is_error: false, num_turns: 2 });
  expect(result.json?.result).toContain('The command printed: hello.txt');
  expect(result.json?.result).toContain('notes.md');
  return result;
}

/** The turns a scripted upstream saw: the first offering Bash, the last carrying the `ls` output. */
function turnsOf(requests: RecordedRequest[]): RecordedRequest[] {
  expect(requests.length).toBeGreaterThanOrEqual(2);
  return requests;
}

describe(`Claude Code (pinned) through /v1/messages`, () => {
  it('finishes its tool round trip on the Anthropic pass-through: body, betas and version forwarded as sent', {
    timeout: 120_000,
  }, async () => {
    let detail = '';
    recordAgentClientCell({ client: 'Claude Code', version, route: 'Anthropic pass-through', detail: () => detail });
    const result = await roundTrip('claude-opus-5-5');
    const turns = turnsOf(upstreams.anthropic.requestsTo('POST /v1/messages'));
    const first = turns[0]!;
    const body = first.json as Record<string, unknown> & {
      messages: { role: string }[];
      tools: { name: string; defer_loading?: boolean }[];
    };
    // Claude Code 2.1's own fields reach Anthropic unchanged.
    expect(body.messages.map((m) => m.role)).toContain('system');
    expect(body).toHaveProperty('context_management');
    expect(body).toHaveProperty('output_config');
    expect(body.tools.some((t) => t.defer_loading === true)).toBe(true);
    const betas = String(first.headers['anthropic-beta']).split(',');
    expect(betas).toContain('claude-code-20250219');
    expect(betas.at(-1)).toBe('config-beta-2026-01-01');
    expect(first.headers['anthropic-version']).toBe('2023-06-01');
    expect(first.headers['x-api-key']).toBe('sk-ant-upstream-0000');
    // The ledger books each turn under Claude Code's session.
    const usage = await fetch(`${origin}/admin/usage?group_by=session`, {
      headers: { authorization: `Bearer ${MASTER}` },
    });
    const sessions = ((await usage.json()) as { data: { group: string; requests: number; cost_usd: number }[] }).data;
    // Sent as x-claude-code-session-id (not forwarded upstream); Claude Code reports it in its result.
    const session = String(result.json?.session_id);
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.headers).not.toHaveProperty('x-claude-code-session-id');
    expect(sessions.find((s) => s.group === session)).toMatchObject({ requests: turns.length });
    detail = `exit ${result.code}, ${result.json?.num_turns} turns, Bash ls`;
  });

  it('finishes its tool round trip translated to an OpenAI-compatible upstream: system entries in place, Anthropic-only fields dropped', {
    timeout: 120_000,
  }, async () => {
    let detail = '';
    recordAgentClientCell({
      client: 'Claude Code',
      version,
      route: 'OpenAI-compatible chat (translated)',
      detail: () => detail,
    });
    const result = await roundTrip('gpt-agent');
    const turns = turnsOf(upstreams.openai.requestsTo('POST /v1/chat/completions'));
    const body = turns[0]!.json as Record<string, unknown> & {
      messages: { role: string }[];
      tools: { function: { name: string } }[];
    };
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages.slice(1).map((m) => m.role)).toContain('system');
    expect(body.tools.map((t) => t.function.name)).toContain('Bash');
    expect(body.reasoning_effort).toEqual(expect.any(String));
    expect(body).not.toHaveProperty('context_management');
    expect(body).not.toHaveProperty('output_config');
    const last = turns.at(-1)!.json as { messages: { role: string; content: unknown }[] };
    expect(last.messages.at(-1)).toMatchObject({ role: 'tool' });
    detail = `exit ${result.code}, ${result.json?.num_turns} turns, Bash ls`;
  });

  it('finishes its tool round trip translated to Gemini', { timeout: 120_000 }, async () => {
    let detail = '';
    recordAgentClientCell({ client: 'Claude Code', version, route: 'Gemini (translated)', detail: () => detail });
    const result = await roundTrip('gemini-agent');
    const turns = turnsOf(upstreams.gemini.requestsTo('POST /v1beta/models/*:streamGenerateContent'));
    const body = turns[0]!.json as { systemInstruction?: { parts: { text: string }[] } };
    expect(body.systemInstruction?.parts[0]?.text).toContain('# Environment');
    detail = `exit ${result.code}, ${result.json?.num_turns} turns, Bash ls`;
  });

  it('finishes its tool round trip on Claude on Bedrock (InvokeModelWithResponseStream, SigV4): betas in the body, adapted', {
    timeout: 120_000,
  }, async () => {
    let detail = '';
    recordAgentClientCell({
      client: 'Claude Code',
      version,
      route: 'Claude on Bedrock (pass-through)',
      detail: () => detail,
    });
    const result = await roundTrip('claude-bedrock');
    const turns = turnsOf(upstreams.bedrock.requestsTo('POST /model/*/invoke-with-response-stream'));
    expect(turns[0]!.path).toBe(`/model/${encodeURIComponent(BEDROCK_CLAUDE)}/invoke-with-response-stream`);
    const body = turns[0]!.json as Record<string, unknown> & { anthropic_beta: string[]; messages: { role: string }[] };
    expect(body.anthropic_version).toBe('bedrock-2023-05-31');
    expect(body).not.toHaveProperty('model');
    expect(body).not.toHaveProperty('stream');
    expect(body.anthropic_beta).toContain('claude-code-20250219');
    expect(body.anthropic_beta).not.toContain('advanced-tool-use-2025-11-20');
    expect(body.anthropic_beta).toContain('tool-search-tool-2025-10-19');
    expect(body.messages.map((m) => m.role)).toContain('system');
    expect(body).toHaveProperty('context_management');
    detail = `exit ${result.code}, ${result.json?.num_turns} turns, Bash ls`;
  });
});
