import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockRoute, openaiReplayRoutes } from '@switchyard/testkit';
import OpenAI from 'openai';
import { expect } from 'vitest';
import { createAdminKey } from './admin-keys.js';
import { type GatewayWithUpstreams, useGatewayWithUpstreams } from './gateway-with-upstreams.js';

export const ENDPOINTS_MASTER_KEY = 'sk-master-endpoints-0123456789';

/** A ledger row as `GET /admin/requests` lists it (the fields the endpoint tests read). */
export interface LedgerRow {
  model: string;
  provider: string | null;
  status: number;
  stream: boolean;
  prompt_tokens: number;
  completion_tokens: number;
  cost_usd: number;
}

/** What {@link useEndpointsGateway} gives a test file. */
export interface EndpointsGateway {
  gateway: GatewayWithUpstreams<'upstream'>;
  /** Issues a virtual key through the admin API (`body`: name, limits, models). */
  createKey(body: Record<string, unknown>): Promise<{ id: string; key: string }>;
  /** The official `openai` SDK sending `key`, no retries. */
  client(key: string): OpenAI;
  /** The ledger rows of a virtual key, newest first (`GET /admin/requests?key=`). */
  ledger(keyId: string): Promise<LedgerRow[]>;
  /** Waits until the key has `count` ledger rows and returns them, newest first. */
  ledgerOf(keyId: string, count: number): Promise<LedgerRow[]>;
}

/**
 * Starts the real gateway with accounts (SQLite ledger, an admin master key) in front of one mock upstream that speaks,
 * on separate paths, OpenAI (`/v1`, the recorded replay routes plus `routes`), the Groq (`/openai/v1`) and Mistral
 * (`/mistral/v1`) presets, Azure OpenAI (`/openai/deployments/...`) and Anthropic (`/v1/messages`). `models` is the
 * YAML list of models (each `- { id, provider, upstream, price }`); providers are named openai, groq, mistral, azure,
 * anthropic, deepseek.
 */
export function useEndpointsGateway(models: string, routes: Record<string, MockRoute> = {}): EndpointsGateway {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-endpoints-'));
  const gateway = useGatewayWithUpstreams({
    upstreams: { upstream: { routes: { ...openaiReplayRoutes(), ...routes } } },
    config: (url) => `
admin: { master_key: "${ENDPOINTS_MASTER_KEY}" }
store: { sqlite: "${join(dir, 'gateway.db')}" }
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${url.upstream}/v1" }
  groq: { adapter: groq, api_key: gsk-upstream-groq-0000, base_url: "${url.upstream}/openai/v1" }
  mistral: { adapter: mistral, api_key: mistral-upstream-0000, base_url: "${url.upstream}/mistral/v1" }
  deepseek: { adapter: deepseek, api_key: deepseek-upstream-0000, base_url: "${url.upstream}/deepseek/v1" }
  azure: { adapter: azure, api_key: azure-upstream-0000, base_url: "${url.upstream}" }
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${url.upstream}" }
models:
${models}
routing: { max_retries: 0 }
`,
    clientTimeoutMs: 10_000,
    clearBetweenTests: true,
  });
  const headers = { authorization: `Bearer ${ENDPOINTS_MASTER_KEY}` };
  const ledger = async (keyId: string) => {
    const res = await fetch(`${gateway.origin}/admin/requests?key=${encodeURIComponent(keyId)}&limit=100`, { headers });
    return ((await res.json()) as { data: LedgerRow[] }).data;
  };
  return {
    gateway,
    createKey: (body) => createAdminKey(gateway.origin, ENDPOINTS_MASTER_KEY, body),
    client: (key) => new OpenAI({ baseURL: gateway.url, apiKey: key, maxRetries: 0, timeout: 10_000 }),
    ledger,
    async ledgerOf(keyId, count) {
      await expect.poll(async () => (await ledger(keyId)).length).toBe(count);
      return ledger(keyId);
    },
  };
}
