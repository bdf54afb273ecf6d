import type { AdapterCallContext, GatewayWarning } from '@switchyard/core';
import {
  type MockUpstream,
  createTestServiceAccount,
  googleTokenMock,
  startMockUpstream,
  testkitFixtures,
} from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVertex, createVertexTokenSource } from '../src/index.js';

// Audit (issue #22, silent drops): Gemini on Vertex follows provider-google's parameter rule, as the Gemini API does.
const GENERATE =
  'POST /v1/projects/my-project/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent';
let upstream: MockUpstream;
let adapter: ReturnType<typeof createVertex>;
const warnings: GatewayWarning[] = [];
const context = (): AdapterCallContext => ({
  signal: new AbortController().signal,
  requestId: 'r1',
  provider: 'vertex',
  warn: (w) => warnings.push(w),
});

beforeAll(async () => {
  upstream = await startMockUpstream();
  const account = createTestServiceAccount(`${upstream.url}/token`);
  const tokens = googleTokenMock(account);
  upstream.route('POST /token', tokens.route);
  upstream.route(
    GENERATE,
    tokens.requireToken(() => ({ json: testkitFixtures().json('google/google-text.json') })),
  );
  adapter = createVertex({
    project: 'my-project',
    location: 'us-central1',
    tokens: createVertexTokenSource(account.key),
    baseURL: upstream.url,
  });
});
afterAll(() => upstream.close());

describe('Vertex Gemini parameters', () => {
  it('reports user and parallel_tool_calls as dropped, and refuses logit_bias with 400 naming it', async () => {
    const messages = [{ role: 'user' as const, content: 'hi' }];
    await adapter.chatCompletions!(
      { model: 'gemini-2.5-flash', user: 'u1', parallel_tool_calls: false, messages },
      context(),
    );
    expect(warnings.map((w) => [w.code, w.param])).toEqual([
      ['dropped_parameter', 'user'],
      ['dropped_parameter', 'parallel_tool_calls'],
    ]);
    const before = upstream.requestsTo(GENERATE).length;
    await expect(
      adapter.chatCompletions!({ model: 'gemini-2.5-flash', logit_bias: { '1': 5 }, messages }, context()),
    ).rejects.toMatchObject({
      status: 400,
      param: 'logit_bias',
      code: 'unsupported_parameter',
    });
    expect(upstream.requestsTo(GENERATE)).toHaveLength(before);
  });
});
