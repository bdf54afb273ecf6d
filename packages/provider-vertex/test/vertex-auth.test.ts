import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdapterCallContext, ChatCompletion, GatewayError } from '@switchyard/core';
import {
  type GoogleTokenMock,
  type MockUpstream,
  type TestServiceAccount,
  countingUpstream,
  createTestServiceAccount,
  googleTokenMock,
  startMockUpstream,
  testkitFixtures,
} from '@switchyard/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createVertex, createVertexTokenSource, readCredentials, switchyardProvider } from '../src/index.js';

const fixtures = testkitFixtures();
const GENERATE =
  'POST /v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent';
const context = (): AdapterCallContext => ({
  signal: new AbortController().signal,
  requestId: 'r1',
  provider: 'vertex',
  warn: () => {},
});
let upstream: MockUpstream;
let account: TestServiceAccount;
let tokens: GoogleTokenMock;

beforeAll(async () => {
  upstream = await startMockUpstream();
  account = createTestServiceAccount(`${upstream.url}/token`);
});
beforeEach(() => {
  tokens = googleTokenMock(account);
  upstream.route('POST /token', tokens.route);
  upstream.route(
    GENERATE,
    tokens.requireToken(() => ({ json: fixtures.json('google/google-text.json') })),
  );
  upstream.clear();
});
afterAll(() => upstream.close());

const chat = (adapter: ReturnType<typeof createVertex>) =>
  adapter.chatCompletions!(
    { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] },
    context(),
  ) as Promise<ChatCompletion>;
const adapterWith = (key: Record<string, unknown>) =>
  createVertex({
    project: 'my-project',
    location: 'us-central1',
    tokens: createVertexTokenSource(key),
    baseURL: upstream.url,
  });

describe('Vertex service-account tokens', () => {
  it("exchanges a JWT signed with the key at the key file's token_uri, and caches the token", async () => {
    const adapter = adapterWith(account.key);
    expect((await chat(adapter)).choices[0]!.message.content).toContain('strawberry');
    await chat(adapter);
    expect(upstream.requestsTo('POST /token')).toHaveLength(1);
    expect(upstream.requestsTo(GENERATE).map((r) => r.headers.authorization)).toEqual([
      'Bearer ya29.test-token-1',
      'Bearer ya29.test-token-1',
    ]);
  });

  it('fetches a new token when the cached one is near expiry', async () => {
    tokens.expiresIn = 120; // Inside the 5-minute refresh margin.
    const adapter = adapterWith(account.key);
    await chat(adapter);
    tokens.expiresIn = 3600;
    await chat(adapter);
    await chat(adapter);
    expect(upstream.requestsTo('POST /token')).toHaveLength(2);
    expect(upstream.requestsTo(GENERATE).map((r) => r.headers.authorization)).toEqual([
      'Bearer ya29.test-token-1',
      'Bearer ya29.test-token-2',
      'Bearer ya29.test-token-2',
    ]);
  });

  it('refreshes once on a 401 and repeats the call', async () => {
    const adapter = adapterWith(account.key);
    await chat(adapter);
    tokens.revokeAll();
    expect((await chat(adapter)).choices[0]!.message.content).toContain('strawberry');
    expect(upstream.requestsTo(GENERATE).map((r) => r.headers.authorization)).toEqual([
      'Bearer ya29.test-token-1',
      'Bearer ya29.test-token-1',
      'Bearer ya29.test-token-2',
    ]);
  });

  it('is refused without the token the endpoint issued', async () => {
    const adapter = createVertex({
      project: 'my-project',
      location: 'us-central1',
      tokens: { getToken: async () => 'ya29.forged', invalidate: () => {} },
      baseURL: upstream.url,
    });
    await expect(chat(adapter)).rejects.toMatchObject({ status: 401 });
    expect(upstream.requestsTo(GENERATE)).toHaveLength(2); // The call and its one retry.
  });

  it('fails with 502 naming the cause when the key is not the one the endpoint knows', async () => {
    const stranger = createTestServiceAccount(`${upstream.url}/token`, account.key.client_email);
    await expect(chat(adapterWith(stranger.key))).rejects.toMatchObject({ status: 502, code: 'upstream_auth_failed' });
  });
});

describe('credentials setting', () => {
  it('takes a key file path or the JSON itself', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-vertex-'));
    const path = join(dir, 'service-account.json');
    await writeFile(path, JSON.stringify(account.key));
    expect(readCredentials(path)).toEqual(account.key);
    expect(readCredentials(JSON.stringify(account.key))).toEqual(account.key);
    const adapter = switchyardProvider.create(
      switchyardProvider.settingsSchema.parse({
        project: 'my-project',
        location: 'us-central1',
        credentials: path,
        base_url: upstream.url,
      }),
    );
    expect((await chat(adapter as ReturnType<typeof createVertex>)).choices[0]!.message.content).toContain(
      'strawberry',
    );
  });

  it('refuses a missing key file at startup', () => {
    expect(() => readCredentials('/nonexistent/key.json')).toThrow(/ENOENT|no such file/);
  });
});

describe('Application Default Credentials', () => {
  it('uses the key file named by GOOGLE_APPLICATION_CREDENTIALS when no credentials are configured', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-adc-'));
    const path = join(dir, 'adc.json');
    await writeFile(path, JSON.stringify(account.key));
    const source = createVertexTokenSource(undefined, { GOOGLE_APPLICATION_CREDENTIALS: path });
    expect(await source.getToken()).toBe('ya29.test-token-1');
    expect(upstream.requestsTo('POST /token')).toHaveLength(1);
  });
});

describe('Vertex upstream settings', () => {
  it("calls through the gateway's dispatcher and answers 502 naming the provider and its body limit for an oversize answer", async () => {
    upstream.route(
      GENERATE,
      tokens.requireToken(() => ({
        json: { ...fixtures.json<Record<string, unknown>>('google/google-text.json'), filler: 'x'.repeat(5000) },
      })),
    );
    const counting = countingUpstream({ maxResponseBytes: 1000 });
    const adapter = adapterWith(account.key);
    const error = (await adapter.chatCompletions!(
      { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] },
      { ...context(), upstream: counting.upstream },
    ).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    expect(error.message).toContain("'vertex'");
    expect(error.message).toContain('1000 byte limit (providers.vertex.limits.max_response_bytes)');
    // The generateContent call went through the gateway's dispatcher (the token fetch has its own client).
    expect(counting.dispatched).toBe(1);
  });
});
