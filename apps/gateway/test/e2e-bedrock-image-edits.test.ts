import { type MockUpstream, type RecordedRequest, startMockUpstream, verifySigV4 } from '@switchyard/testkit';
import { decode, encode } from 'fast-png';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// `POST /v1/images/edits` and `/v1/images/variations` on Bedrock through the official openai SDK: Amazon Nova Canvas
// gets INPAINTING with OpenAI's mask (transparent = edit) converted to Nova's (pure black = edit, white = keep), or
// IMAGE_VARIATION without a mask; its `{images}` answer comes back as b64_json images. Every call is SigV4-signed.
const KEY = 'sk-switchyard-bedrock-edits-0123456789';
const AWS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const ROUTE = 'POST /model/amazon.nova-canvas-v1%3A0/invoke';
const OUT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
let upstream: MockUpstream;
let running: RunningServer;
let client: OpenAI;

/** A 3x1 RGBA PNG, each pixel's alpha given. */
const rgba = (alphas: number[]) =>
  Buffer.from(
    encode({
      width: alphas.length,
      height: 1,
      data: new Uint8Array(alphas.flatMap((a) => [10, 20, 30, a])),
      channels: 4,
      depth: 8,
    }),
  );
const image = rgba([255, 255, 255]);
const lastBody = () => upstream.requestsTo(ROUTE).at(-1)!.json as Record<string, Record<string, unknown>>;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.route(ROUTE, async (request: RecordedRequest) => {
    const verdict = await verifySigV4(request, AWS);
    if (!verdict.ok) return { status: 403, json: { message: `bad signature (${verdict.reason})` } };
    const { imageGenerationConfig } = request.json as { imageGenerationConfig: { numberOfImages: number } };
    return { json: { images: Array.from({ length: imageGenerationConfig.numberOfImages }, () => OUT) } };
  });
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  bedrock: { adapter: bedrock, region: us-east-1, access_key_id: ${AWS.accessKeyId}, secret_access_key: "${AWS.secretAccessKey}", base_url: "${upstream.url}" }
models:
  - { id: nova-canvas, provider: bedrock, upstream: "amazon.nova-canvas-v1:0" }
  - { id: claude-bedrock, provider: bedrock, upstream: "anthropic.claude-3-5-sonnet-20241022-v2:0" }
routing: { max_retries: 0 }
`);
  client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

describe('Nova Canvas image edits and variations on Bedrock through the openai SDK', () => {
  it('inpaints with the mask converted to Nova’s (transparent -> black), n and quality translated', async () => {
    const mask = rgba([0, 255, 0]);
    const res = await client.images.edit({
      model: 'nova-canvas',
      image: await toFile(image, 'photo.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt: 'Add a red balloon',
      n: 2,
      quality: 'high',
    });
    expect(res.data?.map((d) => d.b64_json)).toEqual([OUT, OUT]);
    const sent = lastBody();
    expect(sent.taskType).toBe('INPAINTING');
    expect(sent.imageGenerationConfig).toEqual({ numberOfImages: 2, quality: 'premium' });
    const params = sent.inPaintingParams as { image: string; text: string; maskImage: string };
    expect(params.image).toBe(image.toString('base64'));
    expect(params.text).toBe('Add a red balloon');
    const nova = decode(Buffer.from(params.maskImage, 'base64'));
    expect([nova.width, nova.height, nova.channels]).toEqual([3, 1, 3]);
    expect([...nova.data]).toEqual([0, 0, 0, 255, 255, 255, 0, 0, 0]);
  });

  it('edits without a mask as IMAGE_VARIATION with the prompt; an unknown field comes back as a warning', async () => {
    const { data, response } = await client.images
      .edit({
        model: 'nova-canvas',
        image: await toFile(image, 'photo.png', { type: 'image/png' }),
        prompt: 'In watercolour',
        size: '1024x1024',
        user: 'end-user-1',
      })
      .withResponse();
    expect(data.data?.map((d) => d.b64_json)).toEqual([OUT]);
    expect(lastBody()).toEqual({
      taskType: 'IMAGE_VARIATION',
      imageVariationParams: { images: [image.toString('base64')], text: 'In watercolour' },
      imageGenerationConfig: { numberOfImages: 1, quality: 'standard', width: 1024, height: 1024 },
    });
    expect(response.headers.get('x-switchyard-warning')).toContain('user');
  });

  it('makes variations: IMAGE_VARIATION with the image and no text', async () => {
    const res = await client.images.createVariation({
      model: 'nova-canvas',
      image: await toFile(image, 'photo.png', { type: 'image/png' }),
      n: 3,
      size: '512x512',
    });
    expect(res.data?.map((d) => d.b64_json)).toEqual([OUT, OUT, OUT]);
    expect(lastBody()).toEqual({
      taskType: 'IMAGE_VARIATION',
      imageVariationParams: { images: [image.toString('base64')] },
      imageGenerationConfig: { numberOfImages: 3, quality: 'standard', width: 512, height: 512 },
    });
  });

  it('answers 400 naming what Nova Canvas cannot do, without calling Bedrock', async () => {
    const before = upstream.requestsTo(ROUTE).length;
    const refusal = async (call: Promise<unknown>) =>
      (await call.then(
        () => undefined,
        (e: unknown) => e,
      )) as InstanceType<typeof OpenAI.APIError>;
    const file = () => toFile(image, 'photo.png', { type: 'image/png' });
    const url = await refusal(
      client.images.edit({ model: 'nova-canvas', image: await file(), prompt: 'x', response_format: 'url' }),
    );
    expect([url.status, url.param]).toEqual([400, 'response_format']);
    const sized = await refusal(
      client.images.edit({
        model: 'nova-canvas',
        image: await file(),
        mask: await toFile(rgba([0, 0, 0]), 'mask.png', { type: 'image/png' }),
        prompt: 'x',
        size: '1024x1024',
      }),
    );
    expect([sized.status, sized.param]).toEqual([400, 'size']);
    const small = await refusal(
      client.images.createVariation({ model: 'nova-canvas', image: await file(), size: '256x256' }),
    );
    expect([small.status, small.param]).toEqual([400, 'size']);
    const claude = await refusal(client.images.createVariation({ model: 'claude-bedrock', image: await file() }));
    expect([claude.status, claude.param]).toEqual([400, 'model']);
    expect(upstream.requestsTo(ROUTE)).toHaveLength(before);
  });
});
