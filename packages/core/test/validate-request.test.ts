import { describe, expect, it } from 'vitest';
import {
  GatewayError,
  chatCompletionRequestSchema,
  embeddingRequestSchema,
  imageGenerationRequestSchema,
  transcriptionFieldsSchema,
  validateRequest,
} from '../src/index.js';

function rejection(schema: Parameters<typeof validateRequest>[0], body: unknown): GatewayError {
  try {
    validateRequest(schema, body);
  } catch (error) {
    expect(GatewayError.isInstance(error)).toBe(true);
    return error as GatewayError;
  }
  throw new Error('expected a validation error');
}

const chat = (extra: Record<string, unknown>) => ({
  model: 'm',
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

describe('chat completion request validation', () => {
  it('accepts a full request and keeps unknown fields for OpenAI-compatible upstreams', () => {
    const parsed = validateRequest(
      chatCompletionRequestSchema,
      chat({ temperature: 2, top_p: 1, n: 2, stop: ['a', 'b', 'c', 'd'], user: 'u', some_new_param: { x: 1 } }),
    );
    expect(parsed).toMatchObject({ n: 2, some_new_param: { x: 1 } });
  });

  it.each([
    [{ temperature: 2.01 }, 'temperature', 'decimal_above_max_value'],
    [{ temperature: -0.1 }, 'temperature', 'decimal_below_min_value'],
    [{ presence_penalty: 2.5 }, 'presence_penalty', 'decimal_above_max_value'],
    [{ frequency_penalty: -2.5 }, 'frequency_penalty', 'decimal_below_min_value'],
    [{ stop: ['1', '2', '3', '4', '5'] }, 'stop', 'array_above_max_length'],
    [{ messages: [] }, 'messages', 'array_below_min_length'],
    [{ temperature: 'hot' }, 'temperature', 'invalid_type'],
    [{ model: undefined }, 'model', 'missing_required_parameter'],
  ])('rejects %j naming %s', (extra, param, code) => {
    const error = rejection(chatCompletionRequestSchema, chat(extra));
    expect(error.status).toBe(400);
    expect(error.toJSON()).toEqual({
      error: { message: expect.stringContaining(`'${param}'`), type: 'invalid_request_error', param, code },
    });
  });

  it('names the nested field of a bad message', () => {
    const error = rejection(
      chatCompletionRequestSchema,
      chat({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 42 },
        ],
      }),
    );
    expect(error.param).toMatch(/^messages\[1\]/);
  });

  it('rejects a body that is not an object', () => {
    expect(rejection(chatCompletionRequestSchema, [1, 2]).toJSON().error.code).toBe('invalid_body');
  });
});

describe('other request schemas', () => {
  it('coerces multipart transcription temperature and bounds it to 0..1', () => {
    expect(validateRequest(transcriptionFieldsSchema, { model: 'w', temperature: '0.5' }).temperature).toBe(0.5);
    expect(rejection(transcriptionFieldsSchema, { model: 'w', temperature: '1.5' }).param).toBe('temperature');
  });

  it('checks image sizes as WxH and accepts quality hd', () => {
    expect(
      validateRequest(imageGenerationRequestSchema, { model: 'i', prompt: 'p', size: '1024x1792', quality: 'hd' })
        .quality,
    ).toBe('hd');
    expect(rejection(imageGenerationRequestSchema, { model: 'i', prompt: 'p', size: 'big' }).param).toBe('size');
  });

  it('accepts string and array embedding input, and rejects other encodings', () => {
    expect(validateRequest(embeddingRequestSchema, { model: 'e', input: 'x' }).input).toBe('x');
    expect(
      validateRequest(embeddingRequestSchema, {
        model: 'e',
        input: ['x', 'y'],
        encoding_format: 'base64',
        dimensions: 8,
      }).dimensions,
    ).toBe(8);
    expect(rejection(embeddingRequestSchema, { model: 'e', input: 'x', encoding_format: 'hex' }).param).toBe(
      'encoding_format',
    );
  });
});
