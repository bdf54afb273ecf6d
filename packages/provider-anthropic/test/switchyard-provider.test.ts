import { ADAPTER_SPEC_VERSION } from '@switchyard/core';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { anthropicSettingsSchema, switchyardProvider } from '../src/index.js';
import { callContext, chatRequest, KEY, MESSAGES, recorded } from './support.js';

const upstream = useMockUpstream({ routes: { [MESSAGES]: recorded('anthropic-text') }, clearBetweenTests: true });

const sentMaxTokens = async (settings: Record<string, unknown>, model: string) => {
  const adapter = switchyardProvider.create(
    anthropicSettingsSchema.parse({ api_key: KEY, base_url: upstream.url, ...settings }),
  );
  await adapter.chatCompletions!(chatRequest({ model }), callContext());
  return (upstream.requests.at(-1)!.json as { max_tokens: number }).max_tokens;
};

describe('switchyardProvider', () => {
  it('is the anthropic adapter of the current contract, enabled by ANTHROPIC_API_KEY', () => {
    expect(switchyardProvider).toMatchObject({
      specVersion: ADAPTER_SPEC_VERSION,
      adapter: 'anthropic',
      apiKeyEnv: ['ANTHROPIC_API_KEY'],
    });
    expect(switchyardProvider.create({ api_key: KEY }).adapter).toBe('anthropic');
  });

  it('accepts the documented snake_case settings and rejects unknown or invalid ones', () => {
    const full = {
      api_key: KEY,
      base_url: 'https://api.anthropic.com',
      version: '2023-06-01',
      max_tokens: { default: 4096, 'claude-sonnet-4-5': 16384 },
      headers: { 'anthropic-beta': 'x' },
      timeouts: { headers_ms: 60000, body_idle_ms: 30000 },
    };
    expect(anthropicSettingsSchema.parse(full)).toEqual(full);
    expect(anthropicSettingsSchema.safeParse({ api_key: KEY, max_tokens: 1024 }).success).toBe(true);
    expect(anthropicSettingsSchema.safeParse({}).success).toBe(false);
    expect(anthropicSettingsSchema.safeParse({ api_key: KEY, apiKey: KEY }).success).toBe(false);
    expect(anthropicSettingsSchema.safeParse({ api_key: KEY, max_tokens: 0 }).success).toBe(false);
    expect(anthropicSettingsSchema.safeParse({ api_key: KEY, base_url: 'not a url' }).success).toBe(false);
  });

  it('builds an adapter that sends the configured key, version, headers and base URL', async () => {
    const adapter = switchyardProvider.create({
      api_key: KEY,
      base_url: `${upstream.url}/v1`,
      version: '2024-10-22',
      headers: { 'anthropic-beta': 'b1' },
    });
    await adapter.chatCompletions!(chatRequest(), callContext());
    expect(upstream.requests[0]).toMatchObject({
      path: '/v1/messages',
      headers: { 'x-api-key': KEY, 'anthropic-version': '2024-10-22', 'anthropic-beta': 'b1' },
    });
  });

  it('applies max_tokens: one number for all models, or per model id (exact, then prefix) with a default', async () => {
    expect(await sentMaxTokens({ max_tokens: 1024 }, 'claude-haiku-4-5')).toBe(1024);
    const perModel = { max_tokens: { default: 2000, 'claude-sonnet-4-5': 16000, 'claude-sonnet-4-5-20250929': 8000 } };
    expect(await sentMaxTokens(perModel, 'claude-sonnet-4-5-20250929')).toBe(8000);
    expect(await sentMaxTokens(perModel, 'claude-sonnet-4-5-20991231')).toBe(16000);
    expect(await sentMaxTokens(perModel, 'claude-haiku-4-5')).toBe(2000);
    expect(await sentMaxTokens({ max_tokens: { 'claude-sonnet-4-5': 16000 } }, 'claude-haiku-4-5')).toBe(4096);
    expect(await sentMaxTokens({}, 'claude-haiku-4-5')).toBe(4096);
  });

  it('applies timeouts (headers_ms -> 504)', async () => {
    upstream.route(MESSAGES, { hang: true });
    const adapter = switchyardProvider.create({ api_key: KEY, base_url: upstream.url, timeouts: { headers_ms: 100 } });
    await expect(adapter.chatCompletions!(chatRequest(), callContext())).rejects.toMatchObject({ status: 504 });
    upstream.route(MESSAGES, recorded('anthropic-text'));
  });
});
