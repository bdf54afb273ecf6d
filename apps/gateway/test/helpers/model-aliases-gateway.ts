import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockReply, openaiReplayRoutes, sseFrames, testkitFixtures } from '@switchyard/testkit';
import { type GatewayWithUpstreams, startGatewayWithUpstreams } from './gateway-with-upstreams.js';
import { multiProviderRoutes } from './multi-provider-upstream.js';

// The gateway of the model alias tests (e2e-model-aliases.test.ts): OpenAI (recorded replies) and Anthropic upstreams,
// configured ids, patterns and aliases.

const fixtures = testkitFixtures();
/** The gateway key of the alias gateway. */
export const KEY = 'sk-switchyard-test-key-aliases-0001';
/** The admin master key of the alias gateway. */
export const MASTER = 'sk-master-key-aliases-0123456789';
/** The model id the recorded OpenAI chat stream names. */
export const RECORDED_OPENAI_MODEL = 'gpt-4.1-nano-2025-04-14';
/** OpenAI's compact chunks in one network write: the plain text deltas after the first reach the gateway as one run. */
const compactChunk = (content: string, finish: string | null) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: RECORDED_OPENAI_MODEL,
    choices: [{ index: 0, delta: { content }, finish_reason: finish }],
  });
export const ONE_READ = sseFrames([
  compactChunk('Hel', null),
  compactChunk('lo', null),
  compactChunk(' wörld 😀', null),
  compactChunk('!', null),
  compactChunk('', 'stop'),
]).join('');

/**
 * Starts the alias gateway (SQLite in a temporary directory): models `claude-sonnet-4-5`, `claude-*`, `cheap`,
 * `expensive`, `gpt-*`, `text-embedding-3-small`, `cached`; aliases `claude-opus-5-5`, `claude-free`, `sneaky`,
 * `embed`, `cached-alias`. A chat whose first message is "one read" gets {@link ONE_READ}.
 */
/**
 * A non-streamed completion as an upstream could write it (spaces, escapes, a non-ASCII answer, an unknown field with
 * a nested `model`): the answer to a chat whose first message is "raw body".
 */
export const RAW_COMPLETION =
  '{ "id": "chatcmpl-raw", "object": "chat.completion", "created": 1764201600,\n  "model" : "' +
  RECORDED_OPENAI_MODEL +
  '", "choices": [{"index": 0, "message": {"role": "assistant", "content": "say \\"model\\": café ✓", ' +
  '"refusal": null}, "logprobs": null, "finish_reason": "stop"}], "x_extra": {"model": "inner"},\n' +
  '  "usage": {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7} }';

export async function startModelAliasesGateway(): Promise<GatewayWithUpstreams<'openai' | 'anthropic'>> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-aliases-'));
  return startGatewayWithUpstreams({
    upstreams: {
      openai: {
        routes: {
          ...openaiReplayRoutes(),
          // The recorded stream in one network write: its plain text deltas reach the gateway as runs of one read.
          'POST /v1/chat/completions': (request) => {
            const body = request.json as { stream?: boolean; messages: { content: string }[] };
            if (body.messages[0]?.content === 'one read')
              return { headers: { 'content-type': 'text/event-stream' }, chunks: [ONE_READ] };
            if (body.messages[0]?.content === 'raw body')
              return { headers: { 'content-type': 'application/json' }, body: RAW_COMPLETION };
            return (openaiReplayRoutes()['POST /v1/chat/completions'] as (r: typeof request) => MockReply)(request);
          },
        },
      },
      anthropic: {
        routes: {
          ...multiProviderRoutes(),
          'GET /v1/models': { json: fixtures.json('anthropic/anthropic-models.json') },
        },
      },
    },
    config: (url) => `
server: { host: 127.0.0.1, port: 0 }
keys: ["${KEY}"]
admin: { master_key: "${MASTER}" }
store: { sqlite: "${join(dir, 'gateway.db')}" }
providers:
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${url.openai}/v1" }
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${url.anthropic}" }
models:
  - { id: claude-sonnet-4-5, display_name: "Claude Sonnet 4.5 (EU)", provider: anthropic, upstream: claude-sonnet-4-5-20250929, price: { input: 3, output: 15, cached_input: 0.3 } }
  - { id: "claude-*", provider: anthropic }
  - { id: cheap, provider: openai, upstream: gpt-4.1-nano, price: { input: 0.1, output: 0.4, batch_discount: 0.25 } }
  - { id: expensive, provider: openai, upstream: gpt-5, price: { input: 10, output: 40 } }
  - { id: "gpt-*", provider: openai }
  - { id: text-embedding-3-small, provider: openai }
  - { id: cached, provider: openai, upstream: gpt-4.1-nano, cache: { ttl_s: 60, shared: true } }
aliases:
  claude-opus-5-5: claude-sonnet-4-5
  claude-free: expensive
  sneaky: expensive
  embed: text-embedding-3-small
  cached-alias: cached
routing: { max_retries: 0 }
`,
  });
}
