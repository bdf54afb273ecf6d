import { GatewayError } from '@switchyard/core';
import type { MockReply } from '@switchyard/testkit';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { createAnthropic } from '../src/index.js';
import { callContext, chatRequest, fixtures, KEY, MESSAGES } from './support.js';

const upstream = useMockUpstream({ clearBetweenTests: true });
const fail = async (reply: MockReply): Promise<GatewayError> => {
  upstream.route(MESSAGES, reply);
  const adapter = createAnthropic({ apiKey: KEY, baseURL: upstream.url });
  const error = await adapter.chatCompletions!(chatRequest(), callContext()).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
  return error as GatewayError;
};
const anthropicError = (type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: 'req_011CSHoEeqs5C35K2UUqR7Fy',
});

describe('upstream errors', () => {
  it('529 overloaded (recorded shape) -> 503 server_error in OpenAI shape', async () => {
    const error = await fail({ status: 529, json: fixtures.json('anthropic/anthropic-error-overloaded.json') });
    expect(error.status).toBe(503);
    expect(error.toJSON()).toEqual({
      error: { message: 'Overloaded', type: 'server_error', param: null, code: 'overloaded' },
    });
    expect(error.isRetryable).toBe(true);
  });

  it('429 rate limit (recorded shape) -> 429 rate_limit_error keeping retry-after', async () => {
    const error = await fail({
      status: 429,
      headers: { 'retry-after': '12' },
      json: fixtures.json('anthropic/anthropic-error-rate-limit.json'),
    });
    expect(error.status).toBe(429);
    expect(error.toJSON().error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      message: expect.stringMatching(/^Number of request tokens has exceeded/),
    });
    expect(error.headers).toEqual({ 'retry-after': '12' });
  });

  it.each([
    [
      400,
      'invalid_request_error',
      'max_tokens: 999999 > 64000, which is the maximum allowed',
      'invalid_request_error',
      null,
    ],
    [401, 'authentication_error', 'invalid x-api-key', 'invalid_request_error', 'invalid_api_key'],
    [
      403,
      'permission_error',
      'Your API key does not have permission to use the specified resource.',
      'invalid_request_error',
      'permission_denied',
    ],
    [404, 'not_found_error', 'model: claude-nope', 'invalid_request_error', 'not_found'],
    [
      413,
      'request_too_large',
      'Request exceeds the maximum allowed number of bytes.',
      'invalid_request_error',
      'request_too_large',
    ],
    [500, 'api_error', 'Internal server error', 'server_error', null],
  ])(
    '%i %s keeps its status and message, with OpenAI type and code',
    async (status, type, message, openAIType, code) => {
      const error = await fail({ status, json: anthropicError(type, message) });
      expect(error.status).toBe(status);
      expect(error.toJSON()).toEqual({ error: { message, type: openAIType, param: null, code } });
    },
  );

  it('never passes on the API key, even when the upstream echoes it', async () => {
    const error = await fail({
      status: 401,
      json: anthropicError('authentication_error', `invalid x-api-key: ${KEY}`),
    });
    expect(JSON.stringify(error.toJSON()) + error.message).not.toContain(KEY);
    expect(error.message).toBe('invalid x-api-key: [REDACTED]');
  });

  it('answers with the status and the start of the body when it is not an Anthropic error', async () => {
    const error = await fail({
      status: 502,
      headers: { 'content-type': 'text/html' },
      body: '<html>Bad gateway</html>',
    });
    expect(error.status).toBe(502);
    expect(error.toJSON().error).toMatchObject({
      type: 'server_error',
      message: "The upstream provider 'anthropic' answered HTTP 502: <html>Bad gateway</html>",
    });
  });

  it('answers 502 for a connection reset and 504 when it stalls past the headers timeout', async () => {
    expect((await fail({ reset: true })).status).toBe(502);
    upstream.route(MESSAGES, { hang: true });
    const adapter = createAnthropic({ apiKey: KEY, baseURL: upstream.url, timeouts: { headersMs: 100 } });
    await expect(adapter.chatCompletions!(chatRequest(), callContext())).rejects.toMatchObject({
      status: 504,
      code: 'upstream_timeout',
    });
  });
});
