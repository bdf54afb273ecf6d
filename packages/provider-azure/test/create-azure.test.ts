import { testkitFixtures } from '@switchyard/testkit';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { createAzure } from '../src/index.js';

const context = { signal: new AbortController().signal, requestId: 'req-1', provider: 'azure', warn: () => {} };
const upstream = useMockUpstream({
  routes: { 'POST /openai/deployments/*/chat/completions': { json: testkitFixtures().json('azure/azure-chat.json') } },
});

describe('createAzure', () => {
  it('sends an Entra ID token as Authorization: Bearer instead of api-key, and the configured api-version', async () => {
    const adapter = createAzure({
      baseURL: `${upstream.url}/openai/`,
      azureADToken: 'entra-token-123456',
      apiVersion: '2025-04-01-preview',
    });
    await adapter.chatCompletions!({ model: 'dep/with space', messages: [{ role: 'user', content: 'hi' }] }, context);
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/openai/deployments/dep%2Fwith%20space/chat/completions');
    expect(sent.query).toEqual({ 'api-version': '2025-04-01-preview' });
    expect(sent.headers.authorization).toBe('Bearer entra-token-123456');
    expect(sent.headers['api-key']).toBeUndefined();
  });

  it('refuses to start without a key or token', () => {
    expect(() => createAzure({ baseURL: 'https://x.openai.azure.com' })).toThrow(/api_key or azure_ad_token/);
  });
});

describe('content filter in answers', () => {
  it("passes Azure's finish_reason content_filter and its filter results through", async () => {
    // The recorded answer, edited here to the filtered case Azure documents (finish_reason content_filter).
    const recorded = testkitFixtures().json<{ choices: Record<string, unknown>[] }>('azure/azure-chat.json');
    const filtered = {
      ...recorded,
      choices: [
        { ...recorded.choices[0], finish_reason: 'content_filter', message: { role: 'assistant', content: null } },
      ],
    };
    upstream.route('POST /openai/deployments/*/chat/completions', { json: filtered });
    const adapter = createAzure({ baseURL: upstream.url, apiKey: 'k-123456' });
    const completion = (await adapter.chatCompletions!(
      { model: 'filtered', messages: [{ role: 'user', content: 'x' }] },
      context,
    )) as { choices: { finish_reason: string; content_filter_results?: unknown }[] };
    expect(completion.choices[0]!.finish_reason).toBe('content_filter');
    expect(completion.choices[0]!.content_filter_results).toMatchObject({ self_harm: { filtered: false } });
  });
});
