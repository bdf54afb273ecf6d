import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { type MockUpstream, createTestServiceAccount, googleTokenMock, startMockUpstream } from '@switchyard/testkit';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// `POST /v1/images/edits` on Vertex AI through the official openai SDK (client.images.edit): Imagen's editing model
// (imagen-3.0-capability-001) gets the image as a raw reference image and OpenAI's mask (transparent = edit) converted to
// Imagen's (white = edit); the answer's predictions come back as b64_json images.
const KEY = 'sk-switchyard-vertex-edits-0123456789';
const ROUTE =
  'POST /v1/projects/my-project/locations/us-central1/publishers/google/models/imagen-3.0-capability-001:predict';
const OUT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
let upstream: MockUpstream;
let running: RunningServer;
let client: OpenAI;

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit PNG of one row of pixels (`colorType` 6: RGBA, 0: gray), each pixel's bytes given. */
function png(colorType: 0 | 6, pixels: number[][]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(pixels.length, 0);
  header.writeUInt32BE(1, 4);
  header.writeUInt8(8, 8);
  header.writeUInt8(colorType, 9);
  const raw = Buffer.from([0, ...pixels.flat()]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The color type, width and unfiltered pixel bytes of a one-row PNG (filter byte 0 expected first). */
function readPng(data: Buffer): { colorType: number; width: number; row: number[] } {
  const width = data.readUInt32BE(16);
  const colorType = data.readUInt8(25);
  const chunks: Buffer[] = [];
  for (let at = 8; at < data.length; ) {
    const length = data.readUInt32BE(at);
    if (data.toString('latin1', at + 4, at + 8) === 'IDAT') chunks.push(data.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  expect(raw[0], 'filter type None').toBe(0);
  return { colorType, width, row: [...raw.subarray(1)] };
}

beforeAll(async () => {
  upstream = await startMockUpstream();
  const account = createTestServiceAccount(`${upstream.url}/oauth2/token`);
  const tokens = googleTokenMock(account);
  upstream.route('POST /oauth2/token', tokens.route);
  upstream.route(
    ROUTE,
    tokens.requireToken((request) => {
      const { parameters } = request.json as { parameters: { sampleCount: number } };
      return {
        json: {
          predictions: Array.from({ length: parameters.sampleCount }, () => ({
            bytesBase64Encoded: OUT,
            mimeType: 'image/png',
          })),
        },
      };
    }),
  );
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-vertex-edits-'));
  const keyFile = join(dir, 'service-account.json');
  await writeFile(keyFile, JSON.stringify(account.key));
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  vertex: { adapter: vertex, project: my-project, location: us-central1, credentials: "${keyFile}", base_url: "${upstream.url}" }
models:
  - { id: imagen-edit, provider: vertex, upstream: imagen-3.0-capability-001 }
routing: { max_retries: 0 }
`);
  client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

describe('POST /v1/images/edits on Vertex AI (Imagen editing)', () => {
  const image = png(6, [
    [10, 20, 30, 255],
    [40, 50, 60, 255],
    [70, 80, 90, 255],
  ]);

  it('inpaints with the mask converted to Imagen’s (transparent pixels -> white), n as sampleCount', async () => {
    // OpenAI's convention: fully transparent pixels (alpha 0) are where to edit.
    const mask = png(6, [
      [0, 0, 0, 0],
      [0, 0, 0, 255],
      [255, 255, 255, 0],
    ]);
    const res = await client.images.edit({
      model: 'imagen-edit',
      image: await toFile(image, 'photo.png', { type: 'image/png' }),
      mask: await toFile(mask, 'mask.png', { type: 'image/png' }),
      prompt: 'Add a red balloon',
      n: 2,
    });
    expect(res.data?.map((d) => d.b64_json)).toEqual([OUT, OUT]);
    const sent = upstream.requestsTo(ROUTE).at(-1)!.json as {
      instances: {
        prompt: string;
        referenceImages: {
          referenceType: string;
          referenceId: number;
          referenceImage: { bytesBase64Encoded: string };
          maskImageConfig?: unknown;
        }[];
      }[];
      parameters: Record<string, unknown>;
    };
    expect(sent.parameters).toEqual({ sampleCount: 2, editMode: 'EDIT_MODE_INPAINT_INSERTION' });
    const [raw, maskRef] = sent.instances[0]!.referenceImages;
    expect(sent.instances[0]!.prompt).toBe('Add a red balloon');
    expect(raw).toEqual({
      referenceType: 'REFERENCE_TYPE_RAW',
      referenceId: 1,
      referenceImage: { bytesBase64Encoded: image.toString('base64') },
    });
    expect(maskRef).toMatchObject({
      referenceType: 'REFERENCE_TYPE_MASK',
      referenceId: 2,
      maskImageConfig: { maskMode: 'MASK_MODE_USER_PROVIDED' },
    });
    expect(readPng(Buffer.from(maskRef!.referenceImage.bytesBase64Encoded, 'base64'))).toEqual({
      colorType: 0,
      width: 3,
      row: [255, 0, 255],
    });
  });

  it('edits without a mask (mask-free), and streams the result as one completed event per image', async () => {
    const events: { type: string; b64_json?: string }[] = [];
    const stream = await client.images.edit({
      model: 'imagen-edit',
      image: await toFile(image, 'photo.png', { type: 'image/png' }),
      prompt: 'Make it a watercolor',
      stream: true,
    });
    for await (const event of stream) events.push(event);
    expect(events).toMatchObject([{ type: 'image_edit.completed', b64_json: OUT }]);
    const sent = upstream.requestsTo(ROUTE).at(-1)!.json as {
      instances: { referenceImages: unknown[] }[];
      parameters: Record<string, unknown>;
    };
    expect(sent.parameters).toEqual({ sampleCount: 1 });
    expect(sent.instances[0]!.referenceImages).toHaveLength(1);
  });

  it('refuses what Imagen cannot do with a 400 naming it: two images, a mask without alpha, url answers', async () => {
    const file = () => toFile(image, 'photo.png', { type: 'image/png' });
    const two = await client.images
      .edit({ model: 'imagen-edit', image: [await file(), await file()], prompt: 'x' })
      .catch((e: unknown) => e);
    expect(two).toMatchObject({ status: 400, param: 'image' });
    const gray = await client.images
      .edit({
        model: 'imagen-edit',
        image: await file(),
        mask: await toFile(png(0, [[0], [255], [0]]), 'mask.png'),
        prompt: 'x',
      })
      .catch((e: unknown) => e);
    expect(gray).toMatchObject({ status: 400, param: 'mask' });
    const url = await client.images
      .edit({ model: 'imagen-edit', image: await file(), prompt: 'x', response_format: 'url' })
      .catch((e: unknown) => e);
    expect(url).toMatchObject({ status: 400, param: 'response_format', code: 'unsupported_parameter' });
    const variation = await client.images
      .createVariation({ model: 'imagen-edit', image: await file() })
      .catch((e: unknown) => e);
    expect(variation).toMatchObject({ status: 400, code: 'unsupported_operation' });
  });
});
