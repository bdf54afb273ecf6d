import { startMockUpstream } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { switchyardProvider } from '../src/index.js';
import { callContext, fixtures } from './helpers/openai-test-upstream.js';

describe('switchyardProvider', () => {
  it('validates snake_case settings and is enabled by OPENAI_API_KEY', () => {
    const { settingsSchema } = switchyardProvider;
    expect(switchyardProvider.apiKeyEnv).toEqual(['OPENAI_API_KEY']);
    expect(settingsSchema.safeParse({ base_url: 'http://localhost:11434/v1' }).success).toBe(true);
    expect(
      settingsSchema.safeParse({
        api_key: 'k',
        organization: 'o',
        project: 'p',
        headers: { a: 'b' },
        timeouts: { headers_ms: 1000, body_idle_ms: 500 },
      }).success,
    ).toBe(true);
    expect(settingsSchema.safeParse({ base_url: 'not a url' }).success).toBe(false);
    expect(settingsSchema.safeParse({ apiKey: 'camel' }).success).toBe(false);
    // The connect timeout is gateway-wide (routing.timeouts.connect_ms); a per-provider one would be ignored.
    expect(settingsSchema.safeParse({ timeouts: { connect_ms: 1000 } }).success).toBe(false);
  });

  it('builds an adapter that uses the configured base URL, key and headers', async () => {
    const upstream = await startMockUpstream({
      routes: { 'POST /v1/chat/completions': { json: fixtures.json('openai/openai-text.json') } },
    });
    try {
      const settings = switchyardProvider.settingsSchema.parse({
        api_key: 'sk-config-key-1',
        base_url: `${upstream.url}/v1`,
        organization: 'org-9',
        headers: { 'http-referer': 'https://example.com' },
      });
      await switchyardProvider.create(settings).chatCompletions!(
        { model: 'm', messages: [{ role: 'user', content: 'x' }] },
        callContext(),
      );
      expect(upstream.requests[0]!.headers).toMatchObject({
        authorization: 'Bearer sk-config-key-1',
        'openai-organization': 'org-9',
        'http-referer': 'https://example.com',
      });
    } finally {
      await upstream.close();
    }
  });
});
