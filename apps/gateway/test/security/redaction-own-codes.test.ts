import { type MockUpstream, startMockUpstream } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/start-server.js';
import { startGatewayFromYaml } from '../helpers/test-gateway.js';

// Attack (issue #38, item 9): secret redaction also rewrote the gateway's own codes and messages when a configured
// secret shared 8 characters with them: with an upstream key named `az-upstream-key`, a refused key came back as
// `[REDACTED]_auth_failed`. Pieces of a secret are now redacted only when they are key material (mixed case or digits);
// the whole secret always is.
const KEY = 'sk-switchyard-redaction-0123456789';
const UPSTREAM_KEY = 'az-upstream-key';
let upstream: MockUpstream;
let running: RunningServer;

beforeAll(async () => {
  upstream = await startMockUpstream({
    routes: {
      'POST /v1/chat/completions': {
        status: 401,
        json: {
          error: {
            message: `Incorrect API key provided: ${UPSTREAM_KEY}. The upstream refused it.`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        },
      },
    },
  });
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: ${UPSTREAM_KEY}, base_url: "${upstream.url}/v1" }
models:
  - { id: gpt-4o-mini, provider: openai }
routing: { max_retries: 0 }
`);
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

describe("security: redaction keeps the gateway's own words", () => {
  it('answers upstream_auth_failed intact with a key that shares "upstream" with it, and still hides the key', async () => {
    const res = await fetch(`${running.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await res.text();
    console.log(`answer: ${res.status} ${text}`);
    expect(res.status).toBe(502);
    const { error } = JSON.parse(text) as { error: { code: string; message: string } };
    expect(error.code).toBe('upstream_auth_failed');
    expect(text).not.toContain('[REDACTED]_auth_failed');
    expect(text).not.toContain(UPSTREAM_KEY);
  });
});
