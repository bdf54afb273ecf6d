import { describe, expect, it } from 'vitest';
import { mapOpenAIError } from '../src/index.js';
import { KEY } from './helpers/openai-test-upstream.js';

describe('mapOpenAIError', () => {
  it('keeps status, message, type, param and code; 529 becomes 503; retry-after is kept; the key is redacted', () => {
    const body = JSON.stringify({
      error: { message: `Invalid key ${KEY}`, type: 'invalid_request_error', param: 'model', code: 'bad' },
    });
    const error = mapOpenAIError('openai', 401, body, { 'retry-after': '3' }, [KEY]);
    expect(error.toJSON()).toEqual({
      error: { message: 'Invalid key [REDACTED]', type: 'invalid_request_error', param: 'model', code: 'bad' },
    });
    expect(error.headers['retry-after']).toBe('3');
    expect(mapOpenAIError('x', 529, '{"error":{"message":"Overloaded"}}', {}, []).status).toBe(503);
  });

  it('handles bodies that are not OpenAI-shaped', () => {
    expect(mapOpenAIError('ollama', 404, '{"error":"model not found"}', {}, []).toJSON().error).toMatchObject({
      message: 'model not found',
      type: 'not_found_error',
    });
    expect(mapOpenAIError('vllm', 500, 'Internal Server Error', {}, []).toJSON().error).toMatchObject({
      message: expect.stringContaining('HTTP 500'),
      type: 'server_error',
    });
  });
});
