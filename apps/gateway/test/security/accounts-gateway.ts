import type { MockRoute, MockUpstream } from '@switchyard/testkit';
import type OpenAI from 'openai';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayWithUpstreams } from '../helpers/gateway-with-upstreams.js';

export const MASTER = 'sk-master-key-for-security-tests-0123';

/** A chat completion answer with the given usage (tokens): `chatCompletion` of the shared helpers. */
export { chatCompletion as completion } from '../helpers/chat-completion.js';

/** A gateway with accounts (in-memory SQLite) in front of a mock OpenAI upstream, and helpers to drive it. */
export interface AccountsGateway {
  upstream: MockUpstream;
  running: RunningServer;
  admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Creates a virtual key; returns its id and secret. */
  createKey(input: Record<string, unknown>): Promise<{ id: string; key: string }>;
  client(key: string): OpenAI;
  /** Ledger totals of a key grouped by status: `{ '200': {...}, '429': {...} }`. */
  usageByStatus(
    keyId: string,
  ): Promise<Record<string, { requests: number; prompt_tokens: number; completion_tokens: number; cost_usd: number }>>;
  close(): Promise<void>;
}

/**
 * Starts the gateway from `modelsYaml` (the `models:` list and anything else) with providers `openai` (the mock
 * upstream answering chat with `chat`) and `dead` (nothing listens there).
 */
export async function startAccountsGateway(chat: MockRoute, modelsYaml: string): Promise<AccountsGateway> {
  const gateway = await startGatewayWithUpstreams({
    upstreams: { openai: { routes: { 'POST /v1/chat/completions': chat } } },
    config: (url) => `
admin: { master_key: "${MASTER}" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-000000, base_url: "${url.openai}/v1" }
  dead: { adapter: openai, api_key: sk-dead-000000, base_url: "http://127.0.0.1:1/v1" }
routing: { max_retries: 0 }
${modelsYaml}
`,
    clientTimeoutMs: 10_000,
  });
  const { running, origin } = gateway;
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${origin}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${MASTER}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return {
    upstream: gateway.upstreams.openai,
    running,
    admin,
    async createKey(input) {
      const { status, body } = await admin('POST', '/keys', input);
      if (status !== 201) throw new Error(`key creation failed: ${JSON.stringify(body)}`);
      return { id: body.id as string, key: body.key as string };
    },
    client: gateway.openaiWithKey,
    async usageByStatus(keyId) {
      const { body } = await admin('GET', `/usage?key=${keyId}&group_by=status`);
      const groups = body.data as {
        group: string;
        requests: number;
        prompt_tokens: number;
        completion_tokens: number;
        cost_usd: number;
      }[];
      return Object.fromEntries(groups.map(({ group, ...totals }) => [group, totals]));
    },
    close: gateway.close,
  };
}
