import type { GatewayWarning } from '@switchyard/core';
import { testkitFixtures } from '@switchyard/testkit';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { createAzure } from '../src/index.js';

// Audit (issue #22, silent drops): Azure OpenAI takes OpenAI's wire format, so the adapter drops nothing: every field,
// unknown ones included, reaches the deployment as sent (Azure answers for itself), and no warning is needed.
const upstream = useMockUpstream({
  routes: { 'POST /openai/deployments/*/chat/completions': { json: testkitFixtures().json('azure/azure-chat.json') } },
});

describe('Azure adapter parameters', () => {
  it('forwards every field, unknown ones included, and warns about none', async () => {
    const warnings: GatewayWarning[] = [];
    const request = {
      model: 'dep',
      messages: [{ role: 'user' as const, content: 'hi' }],
      logit_bias: { '1': 5 },
      user: 'u1',
      seed: 3,
      x_future_parameter: [1],
    };
    await createAzure({ baseURL: upstream.url, apiKey: 'azure-key-123456' }).chatCompletions!(request, {
      signal: new AbortController().signal,
      requestId: 'r1',
      provider: 'azure',
      warn: (w) => warnings.push(w),
    });
    expect(upstream.requests.at(-1)!.json).toEqual(request);
    expect(warnings).toEqual([]);
  });
});
