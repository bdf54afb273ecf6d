import { GatewayError, upstreamErrorCode } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { encodeResponseErrorEvent, toResponseError } from '../src/index.js';

const error = (
  status: number,
  message: string,
  extra: { code?: string; type?: string; headers?: Record<string, string> } = {},
) =>
  new GatewayError({
    status,
    message,
    type: extra.type ?? 'invalid_request_error',
    code: upstreamErrorCode(extra.code ?? null),
    param: null,
    headers: extra.headers ?? {},
  });

describe('toResponseError: the codes Codex acts on', () => {
  it('context_length_exceeded from the code or from the upstream wording (OpenAI, Anthropic, Gemini)', () => {
    expect(
      toResponseError(
        error(400, 'This model has a maximum context length of 8192 tokens.', { code: 'context_length_exceeded' }),
      ).code,
    ).toBe('context_length_exceeded');
    expect(toResponseError(error(400, 'prompt is too long: 210000 tokens > 200000 maximum')).code).toBe(
      'context_length_exceeded',
    );
    expect(
      toResponseError(
        error(400, 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).'),
      ).code,
    ).toBe('context_length_exceeded');
    expect(toResponseError(error(400, 'Invalid temperature.')).code).toBe('invalid_prompt');
  });

  it('insufficient_quota, and rate_limit_exceeded with the wait from retry-after', () => {
    expect(
      toResponseError(
        error(429, 'You exceeded your current quota.', { code: 'insufficient_quota', type: 'insufficient_quota' }),
      ).code,
    ).toBe('insufficient_quota');
    expect(toResponseError(error(429, 'Rate limit reached.', { headers: { 'retry-after': '7' } }))).toEqual({
      code: 'rate_limit_exceeded',
      message: 'Rate limit reached. Please try again in 7s.',
      param: null,
    });
    expect(toResponseError(error(429, 'Rate limit reached.')).message).toBe('Rate limit reached.');
    expect(toResponseError(error(503, 'Overloaded')).code).toBe('server_error');
    expect(toResponseError(new Error('socket hang up')).code).toBe('server_error');
  });

  it('encodes an error event and, given the response, response.failed carrying the code', () => {
    const response = { id: 'resp_1', object: 'response', status: 'in_progress' } as never;
    const text = encodeResponseErrorEvent(error(400, 'prompt is too long'), 0, response);
    const [first, second] = text.trim().split('\n\n');
    expect(first).toContain('event: error\ndata: {"type":"error","code":"context_length_exceeded"');
    expect(JSON.parse(second!.split('data: ')[1]!)).toEqual({
      type: 'response.failed',
      response: {
        id: 'resp_1',
        object: 'response',
        status: 'failed',
        error: { code: 'context_length_exceeded', message: 'prompt is too long' },
      },
      sequence_number: 1,
    });
  });
});
