import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import {
  type GoogleTokenMock,
  type MockReply,
  type MockUpstream,
  type RecordedRequest,
  createTestServiceAccount,
  googleTokenMock,
  sseFrames,
  startMockUpstream,
} from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { recordAgentClientCell } from './helpers/agent-client-cells.js';
import { claudeCodeVersion, runClaudeCode } from './helpers/run-claude-code.js';
import { type ScriptedShellCall, scriptedAnthropicAnswer } from './helpers/scripted-agent-upstream.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// `/v1/messages` passed through to Claude on Vertex AI (rawPredict / streamRawPredict, count-tokens:rawPredict) over
// real HTTP: a mock Vertex (with Google's token endpoint) records what reached it; @anthropic-ai/sdk and the pinned
// Claude Code are the judges of what came back.
// @see https://docs.anthropic.com/en/api/claude-on-vertex-ai

const KEY = 'sk-switchyard-vertex-messages-0123456789';
const UPSTREAM_MODEL = 'claude-sonnet-4-5@20250929';
const ROOT = '/v1/projects/my-project/locations/us-east5/publishers/anthropic/models';
const RAW = `POST ${ROOT}/${UPSTREAM_MODEL}:rawPredict`;
const STREAM = `POST ${ROOT}/${UPSTREAM_MODEL}:streamRawPredict`;
const COUNT = `POST ${ROOT}/count-tokens:rawPredict`;
const BASH: ScriptedShellCall = { tool: 'Bash', arguments: { command: 'ls', description: 'List files' } };
const SIGNATURE = 'EqQBCkgIBhABGAIiQL2Vq-vertex-signature==';

/** A whole Claude answer with a signed thinking block, text and a tool call, as Vertex's rawPredict sends it. */
const MESSAGE = {
  id: 'msg_vrtx_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-5-20250929',
  content: [
    { type: 'thinking', thinking: 'The user wants the weather.', signature: SIGNATURE },
    { type: 'text', text: 'Let me check.' },
    { type: 'tool_use', id: 'toolu_vrtx_1', name: 'get_weather', input: { city: 'Paris', unit: 'celsius' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: { input_tokens: 42, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 31 },
};

/** The same answer as Anthropic's stream events (thinking, signature_delta, text, tool_use in two input_json_delta pieces). */
const EVENTS: Record<string, unknown>[] = [
  {
    type: 'message_start',
    message: { ...MESSAGE, content: [], stop_reason: null, usage: { ...MESSAGE.usage, output_tokens: 1 } },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The user wants ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'the weather.' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: SIGNATURE } },
  { type: 'content_block_stop', index: 0 },
  { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me check.' } },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'content_block_start',
    index: 2,
    content_block: { type: 'tool_use', id: 'toolu_vrtx_1', name: 'get_weather', input: {} },
  },
  { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"city": "Par' } },
  {
    type: 'content_block_delta',
    index: 2,
    delta: { type: 'input_json_delta', partial_json: 'is", "unit": "celsius"}' },
  },
  { type: 'content_block_stop', index: 2 },
  { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 31 } },
  { type: 'message_stop' },
];

/** What the client sees: the answer as Vertex sent it, `model` the id the client asked for (the gateway's rule on every route). */
const ANSWERED = { ...MESSAGE, model: 'claude-vertex' };
const ANSWERED_EVENTS = EVENTS.map((event) =>
  event.type === 'message_start'
    ? { ...event, message: { ...(event.message as object), model: 'claude-vertex' } }
    : event,
);

const OVERLOADED = '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}';
const TOOLS = [
  {
    name: 'get_weather',
    description: 'Weather of a city',
    input_schema: { type: 'object' as const, properties: { city: { type: 'string' }, unit: { type: 'string' } } },
  },
];

let upstream: MockUpstream;
let tokens: GoogleTokenMock;
let running: RunningServer;
let client: Anthropic;
/** What the next rawPredict / streamRawPredict call answers: the fixed answer, an overload, or Claude Code's script. */
let mode: 'fixed' | 'overloaded' | 'scripted' = 'fixed';

function answer(stream: boolean) {
  return (request: RecordedRequest): MockReply => {
    if (mode === 'overloaded')
      return {
        status: 529,
        headers: { 'request-id': 'req_vrtx_overloaded', 'content-type': 'application/json' },
        body: OVERLOADED,
      };
    if (mode === 'scripted') {
      const { message, events } = scriptedAnthropicAnswer(
        request.json as Parameters<typeof scriptedAnthropicAnswer>[0],
        BASH,
        `msg_vrtx_${request.bodyText.length}`,
      );
      return stream
        ? {
            chunks: sseFrames(
              events.map((e) => JSON.stringify(e)),
              'typed',
            ),
          }
        : { json: message };
    }
    return stream
      ? {
          chunks: sseFrames(
            EVENTS.map((e) => JSON.stringify(e)),
            'typed',
          ),
        }
      : { json: MESSAGE };
  };
}

beforeAll(async () => {
  upstream = await startMockUpstream();
  const account = createTestServiceAccount(`${upstream.url}/oauth2/token`);
  tokens = googleTokenMock(account);
  upstream.route('POST /oauth2/token', tokens.route);
  upstream.route(RAW, tokens.requireToken(answer(false)));
  upstream.route(STREAM, tokens.requireToken(answer(true)));
  upstream.route(
    COUNT,
    tokens.requireToken((request) => ({ json: { input_tokens: 1000 + request.bodyText.length } })),
  );
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-vertex-messages-'));
  const keyFile = join(dir, 'service-account.json');
  await writeFile(keyFile, JSON.stringify(account.key));
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  vertex: { adapter: vertex, project: my-project, location: us-east5, credentials: "${keyFile}", base_url: "${upstream.url}" }
models:
  - { id: claude-vertex, provider: vertex, upstream: "${UPSTREAM_MODEL}" }
routing: { max_retries: 0 }
`);
  client = new Anthropic({ baseURL: new URL(running.url).origin, apiKey: KEY, maxRetries: 0 });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

/** The body and headers of the last call Vertex got on `route`. */
function lastCall(route: string): {
  body: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  path: string;
} {
  const request = upstream.requestsTo(route).at(-1);
  expect(request, `no call reached ${route}`).toBeDefined();
  return { body: request!.json as Record<string, unknown>, headers: request!.headers, path: request!.path };
}

describe('/v1/messages passed through to Claude on Vertex AI (@anthropic-ai/sdk)', () => {
  it("sends Anthropic's body to rawPredict with anthropic_version, no model, betas adapted; answer reaches the SDK unchanged", async () => {
    mode = 'fixed';
    const message = await client.messages.create(
      {
        model: 'claude-vertex',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: TOOLS,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      },
      {
        headers: {
          'anthropic-beta':
            'interleaved-thinking-2025-05-14,oauth-2025-04-20,advanced-tool-use-2025-11-20,files-api-2025-04-14,context-1m-2025-08-07,web-search-2025-03-05',
        },
      },
    );
    expect(message).toEqual(ANSWERED);
    const { body, headers, path } = lastCall(RAW);
    expect(path).toBe(`${ROOT}/${UPSTREAM_MODEL}:rawPredict`);
    expect(body.anthropic_version).toBe('vertex-2023-10-16');
    expect(body).not.toHaveProperty('model');
    expect(body).not.toHaveProperty('stream');
    expect(body).toMatchObject({
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: TOOLS,
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
    });
    // VERTEX_BETA_RULES: oauth and the Files API left out, advanced-tool-use renamed to Vertex's tool-search-tool, the
    // rest (web search included) kept in order.
    expect(headers['anthropic-beta']).toBe(
      'interleaved-thinking-2025-05-14,tool-search-tool-2025-10-19,context-1m-2025-08-07,web-search-2025-03-05',
    );
    expect(headers).not.toHaveProperty('anthropic-version');
    expect(headers).not.toHaveProperty('x-api-key');
    expect(headers.authorization).toBe(`Bearer ${tokens.issued.at(-1)}`);
  });

  it('streams streamRawPredict events to the SDK unchanged and in order (thinking signature, tool_use input_json_delta)', async () => {
    mode = 'fixed';
    const stream = client.messages.stream(
      {
        model: 'claude-vertex',
        max_tokens: 2048,
        thinking: { type: 'enabled', budget_tokens: 1024 },
        tools: TOOLS,
        messages: [{ role: 'user', content: 'Weather in Paris?' }],
      },
      { headers: { 'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14' } },
    );
    const seen: unknown[] = [];
    stream.on('streamEvent', (event) => seen.push(structuredClone(event)));
    const final = await stream.finalMessage();
    expect(seen).toEqual(ANSWERED_EVENTS);
    // The SDK's accumulated message (it adds its own `parsed_output`): every block, signature and input as Vertex sent them.
    expect(final).toMatchObject(ANSWERED);
    expect(final.content).toEqual(ANSWERED.content);
    const { body, headers } = lastCall(STREAM);
    expect(body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true, max_tokens: 2048 });
    expect(body).not.toHaveProperty('model');
    expect(headers['anthropic-beta']).toBe('fine-grained-tool-streaming-2025-05-14');
  });

  it("returns Vertex's error as it came (529 overloaded_error, request-id) to the SDK", async () => {
    mode = 'overloaded';
    const error = await client.messages
      .create({ model: 'claude-vertex', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    const raw = await fetch(`${running.url}/messages`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
      },
      body: JSON.stringify({ model: 'claude-vertex', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    mode = 'fixed';
    expect(error).toBeInstanceOf(Anthropic.APIError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(529);
    expect(apiError.error).toEqual(JSON.parse(OVERLOADED));
    expect(apiError.requestID).toBe('req_vrtx_overloaded');
    expect(raw.status).toBe(529);
    expect(await raw.text()).toBe(OVERLOADED);
  });

  it("counts tokens with Vertex's count-tokens:rawPredict (model in the body, anthropic_version, betas adapted)", async () => {
    const params = {
      model: 'claude-vertex',
      tools: TOOLS,
      messages: [{ role: 'user' as const, content: 'Weather in Paris?' }],
    };
    const counted = await client.messages.countTokens(params, {
      headers: { 'anthropic-beta': 'token-counting-2024-11-01,oauth-2025-04-20' },
    });
    const request = upstream.requestsTo(COUNT).at(-1)!;
    expect(counted).toEqual({ input_tokens: 1000 + request.bodyText.length });
    const body = request.json as Record<string, unknown>;
    expect(body).toMatchObject({
      model: UPSTREAM_MODEL,
      anthropic_version: 'vertex-2023-10-16',
      tools: TOOLS,
      messages: params.messages,
    });
    expect(request.headers['anthropic-beta']).toBe('token-counting-2024-11-01');
  });
});

describe('Claude Code (pinned) on Claude on Vertex', () => {
  it('finishes its Bash tool round trip through streamRawPredict', { timeout: 120_000 }, async () => {
    mode = 'scripted';
    const version = await claudeCodeVersion();
    let detail = '';
    recordAgentClientCell({
      client: 'Claude Code',
      version,
      route: 'Claude on Vertex (pass-through)',
      detail: () => detail,
    });
    const before = upstream.requestsTo(STREAM).length;
    const result = await runClaudeCode({
      baseURL: new URL(running.url).origin,
      apiKey: KEY,
      model: 'claude-vertex',
      task: 'List the files in the current directory with ls, then tell me what they are.',
    });
    const context = `exit ${result.code}\nstdout: ${result.stdout.slice(-1500)}\nstderr: ${result.stderr.slice(-1500)}`;
    expect(result.code, context).toBe(0);
    expect(result.json, context).toMatchObject({ is_error: false, num_turns: 2 });
    expect(result.json?.result).toContain('The command printed: hello.txt');
    expect(result.json?.result).toContain('notes.md');
    const turns = upstream.requestsTo(STREAM).slice(before);
    expect(turns.length).toBeGreaterThanOrEqual(2);
    const first = turns[0]!.json as Record<string, unknown> & { tools: { name: string }[] };
    expect(first.anthropic_version).toBe('vertex-2023-10-16');
    expect(first).not.toHaveProperty('model');
    expect(first.tools.map((t) => t.name)).toContain('Bash');
    const betas = String(turns[0]!.headers['anthropic-beta']).split(',');
    expect(betas).toContain('claude-code-20250219');
    expect(betas).not.toContain('advanced-tool-use-2025-11-20');
    detail = `exit ${result.code}, ${result.json?.num_turns} turns, Bash ls`;
  });
});
