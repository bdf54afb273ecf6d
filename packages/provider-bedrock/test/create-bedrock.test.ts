import { type MockUpstream, startMockUpstream, testkitFixtures, verifySigV4 } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBedrock } from '../src/index.js';

const credentials = {
  accessKeyId: 'ASIAEXAMPLETEMP',
  secretAccessKey: 'temp-secret-access-key-0000',
  sessionToken: 'IQoJb3JpZ2luX2VjEXAMPLE',
};
const context = { signal: new AbortController().signal, requestId: 'req-1', provider: 'bedrock', warn: () => {} };
let upstream: MockUpstream;
beforeAll(async () => {
  upstream = await startMockUpstream({
    routes: {
      'POST /model/*/converse': async (request) => {
        const verdict = await verifySigV4(request, credentials);
        return verdict.ok
          ? { json: testkitFixtures().json('amazon-bedrock/amazon-bedrock-text.json') }
          : { status: 403, json: { message: verdict.reason } };
      },
    },
  });
});
afterAll(() => upstream.close());

describe('createBedrock', () => {
  it('signs temporary credentials with x-amz-security-token, and never puts the secret in a header', async () => {
    const adapter = createBedrock({ region: 'eu-central-1', credentials, baseURL: upstream.url });
    await adapter.chatCompletions!(
      { model: 'amazon.nova-micro-v1:0', messages: [{ role: 'user', content: 'hi' }] },
      context,
    );
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/model/amazon.nova-micro-v1%3A0/converse');
    expect(sent.headers['x-amz-security-token']).toBe(credentials.sessionToken);
    expect(sent.headers.authorization).toMatch(
      /Credential=ASIAEXAMPLETEMP\/\d{8}\/eu-central-1\/bedrock\/aws4_request, SignedHeaders=[^,]*x-amz-security-token/,
    );
    expect(Object.values(sent.headers).join('\n')).not.toContain(credentials.secretAccessKey);
  });
});
