import { describe, expect, it } from 'vitest';
import {
  GATEWAY_ERROR_CODES,
  GatewayError,
  type GatewayErrorCode,
  invalidRequestError,
  isGatewayErrorCode,
  mapOpenAIError,
  upstreamErrorCode,
} from '../src/index.js';

describe('GATEWAY_ERROR_CODES', () => {
  it('maps every code to itself, in the snake_case OpenAI uses', () => {
    const entries = Object.entries(GATEWAY_ERROR_CODES);
    expect(entries.length).toBeGreaterThan(80);
    for (const [key, value] of entries) {
      expect(value).toBe(key);
      expect(key).toMatch(/^[a-z]+(_[a-z]+)*$/);
    }
  });

  it('types a GatewayError code: a misspelt or unknown literal fails typecheck', () => {
    const known: GatewayErrorCode = 'model_not_found';
    // @ts-expect-error a typo is not a GatewayErrorCode
    const typo: GatewayErrorCode = 'model_not_foud';
    // @ts-expect-error an upstream's own code needs upstreamErrorCode()
    new GatewayError({ status: 400, type: 'invalid_request_error', code: 'context_length_exceeded', message: 'm' });
    // @ts-expect-error the helpers take the same union
    invalidRequestError('m', null, 'invalid_vaule');
    expect([known, typo]).toEqual(['model_not_found', 'model_not_foud']);
  });

  it('tells its own codes from others', () => {
    expect(isGatewayErrorCode('upstream_timeout')).toBe(true);
    expect(isGatewayErrorCode('context_length_exceeded')).toBe(false);
    expect(isGatewayErrorCode('toString')).toBe(false);
    expect(isGatewayErrorCode(7)).toBe(false);
  });
});

describe('upstreamErrorCode', () => {
  it('passes an upstream code to the wire byte for byte', () => {
    const error = new GatewayError({
      status: 400,
      type: 'invalid_request_error',
      code: upstreamErrorCode('context_length_exceeded'),
      message: 'too long',
    });
    expect(JSON.stringify(error.toJSON())).toBe(
      '{"error":{"message":"too long","type":"invalid_request_error","param":null,"code":"context_length_exceeded"}}',
    );
    expect(upstreamErrorCode(null)).toBeNull();
    expect(upstreamErrorCode(undefined)).toBeUndefined();
  });

  it("is how mapOpenAIError keeps OpenAI's own code", () => {
    const body = JSON.stringify({
      error: { message: 'm', type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' },
    });
    expect(mapOpenAIError('openai', 400, body, {}, []).code).toBe('context_length_exceeded');
  });
});
