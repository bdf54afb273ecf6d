import { describe, expect, it } from 'vitest';
import { mapBedrockError, mapBedrockException } from '../src/index.js';

const header = (name: string) => ({
  'x-amzn-errortype': `${name}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
});

describe('mapBedrockError', () => {
  it.each([
    ['ThrottlingException', 429, 'rate_limit_error'],
    ['ValidationException', 400, 'invalid_request_error'],
    ['AccessDeniedException', 403, 'permission_error'],
    ['ResourceNotFoundException', 404, 'invalid_request_error'],
    ['ModelTimeoutException', 504, 'server_error'],
    ['ServiceUnavailableException', 503, 'server_error'],
    ['InternalServerException', 500, 'server_error'],
    ['ModelErrorException', 502, 'server_error'],
  ])('%s -> %i %s', (name, status, type) => {
    const error = mapBedrockError('bedrock', 400, JSON.stringify({ message: `${name} happened` }), header(name), []);
    expect(error.status).toBe(status);
    expect(error.type).toBe(type);
    expect(error.message).toBe(`${name} happened`);
    expect(error.isRetryable).toBe(status === 429 || status >= 500);
  });

  it('names the field of a ValidationException it recognises', () => {
    const error = mapBedrockError(
      'bedrock',
      400,
      JSON.stringify({
        message:
          'The maximum tokens you requested exceeds the model limit of 8192. Try again with a maximum tokens value that is lower than 8192. maxTokens',
      }),
      header('ValidationException'),
      [],
    );
    expect(error.param).toBe('max_tokens');
  });

  it('reads the exception name from __type when the header is absent, and the capitalised Message', () => {
    const error = mapBedrockError(
      'bedrock',
      403,
      JSON.stringify({
        __type: 'com.amazon.coral.service#UnrecognizedClientException',
        Message: 'The security token included in the request is invalid.',
      }),
      {},
      [],
    );
    expect(error).toMatchObject({
      status: 403,
      type: 'authentication_error',
      message: 'The security token included in the request is invalid.',
    });
  });

  it('maps the lower-camel names of stream exception frames', () => {
    expect(mapBedrockException('bedrock', 'modelStreamErrorException', 'boom', 502, []).status).toBe(502);
    expect(mapBedrockException('bedrock', 'serviceUnavailableException', 'busy', 502, []).status).toBe(503);
  });
});
