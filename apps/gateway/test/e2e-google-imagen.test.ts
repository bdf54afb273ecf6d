import type { MockUpstream } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-imagen-0123456789';
const GEMINI_KEY = 'gemini-upstream-secret-0123456789';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex').toString('base64');
let upstream: MockUpstream;
let running: RunningServer;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /v1beta/models/imagen-4.0-generate-001:predict': (request) => {
            if (request.headers['x-goog-api-key'] !== GEMINI_KEY)
              return {
                status: 403,
                json: { error: { code: 403, message: 'API key not valid.', status: 'PERMISSION_DENIED' } },
              };
            const { parameters } = request.json as { parameters: { sampleCount: number } };
            return {
              json: {
                predictions: Array.from({ length: parameters.sampleCount }, () => ({
                  bytesBase64Encoded: PNG,
                  mimeType: 'image/png',
                })),
              },
            };
          },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  google: { adapter: google, api_key: ${GEMINI_KEY}, base_url: "${url.upstream}/v1beta" }
models:
  - { id: imagen, provider: google, upstream: imagen-4.0-generate-001 }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      running,
    } = gateway),
);

describe('image generation through Gemini (Imagen) with the official openai SDK', () => {
  it('returns the generated images as b64_json', async () => {
    const client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
    const result = await client.images.generate({
      model: 'imagen',
      prompt: 'A fox in the snow',
      n: 2,
      size: '1024x1024',
    });
    expect(result.data!.map((d) => d.b64_json)).toEqual([PNG, PNG]);
    expect(upstream.requests[0]!.json).toEqual({
      instances: [{ prompt: 'A fox in the snow' }],
      parameters: { sampleCount: 2, aspectRatio: '1:1' },
    });
  });

  it("answers 400 naming response_format for 'url'", async () => {
    const client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
    const error = await client.images
      .generate({ model: 'google/imagen-4.0-generate-001', prompt: 'x', response_format: 'url' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('response_format');
  });
});
