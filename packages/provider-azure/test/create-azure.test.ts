import { startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAzure } from '../src/index.js';
import type { MockUpstream } from '@switchyard/testkit';

const context = { signal: new AbortController().signal, requestId: 'req-1', provider: 'azure', warn: () => {} };
let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream({ routes: { 'POST /openai/deployments/*/chat/completions': { json: testkitFixtures().json('azure/azure-chat.json') } } });
});
afterAll(() => upstream.close());

describe('createAzure', () => {
  it('sends an Entra ID token as Authorization: Bearer instead of api-key, and the configured api-version', async () => {
    const adapter = createAzure({ baseURL: `${upstream.url}/openai/`, azureADToken: 'entra-token-123456', apiVersion: '2025-04-01-preview' });
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
