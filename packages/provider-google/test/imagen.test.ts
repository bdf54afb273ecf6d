import { GatewayError } from '@switchyard/core';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { createGoogle } from '../src/index.js';

const KEY = 'gemini-imagen-secret-0123456789';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
const ROUTE = 'POST /v1beta/models/imagen-4.0-generate-001:predict';
const upstream = useMockUpstream({ clearBetweenTests: true });
const context = () => ({ signal: new AbortController().signal, requestId: 'r1', provider: 'google', warn: () => {} });

describe('Imagen through the Gemini API', () => {
  it('calls models/{model}:predict with the key in x-goog-api-key and returns b64_json images', async () => {
    upstream.route(ROUTE, {
      json: {
        predictions: [
          { bytesBase64Encoded: PNG, mimeType: 'image/png' },
          { bytesBase64Encoded: PNG, mimeType: 'image/png' },
        ],
      },
    });
    const adapter = createGoogle({ apiKey: KEY, baseURL: `${upstream.url}/v1beta` });
    const images = await adapter.imageGenerations!(
      { model: 'imagen-4.0-generate-001', prompt: 'a fox', n: 2, size: '1024x1792' },
      context(),
    );
    expect(images.data).toEqual([{ b64_json: PNG }, { b64_json: PNG }]);
    const sent = upstream.requestsTo(ROUTE)[0]!;
    expect(sent.headers['x-goog-api-key']).toBe(KEY);
    expect(sent.path + JSON.stringify(sent.query)).not.toContain(KEY);
    expect(sent.json).toEqual({
      instances: [{ prompt: 'a fox' }],
      parameters: { sampleCount: 2, aspectRatio: '9:16' },
    });
  });

  it('answers 400 content_filter when every image was filtered, and maps upstream errors', async () => {
    const adapter = createGoogle({ apiKey: KEY, baseURL: `${upstream.url}/v1beta` });
    upstream.route(ROUTE, { json: { predictions: [{ raiFilteredReason: 'Filtered by safety settings.' }] } });
    const filtered = (await adapter.imageGenerations!(
      { model: 'imagen-4.0-generate-001', prompt: 'x' },
      context(),
    ).catch((e: unknown) => e)) as GatewayError;
    expect([filtered.status, filtered.toJSON().error.code]).toEqual([400, 'content_filter']);
    upstream.route(ROUTE, {
      status: 400,
      json: {
        error: {
          code: 400,
          message: 'Imagen API is only accessible to billed users at this time.',
          status: 'INVALID_ARGUMENT',
        },
      },
    });
    const billed = (await adapter.imageGenerations!({ model: 'imagen-4.0-generate-001', prompt: 'x' }, context()).catch(
      (e: unknown) => e,
    )) as GatewayError;
    expect(GatewayError.isInstance(billed)).toBe(true);
    expect(billed.status).toBe(400);
    expect(billed.toJSON().error.message).toMatch(/billed users/);
  });
});
