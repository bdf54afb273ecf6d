import type { UploadedFile } from '@switchyard/core';
import { decode, encode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { convertToNovaEditRequest, convertToNovaVariationRequest } from '../src/index.js';

const MODEL = 'amazon.nova-canvas-v1:0';
/** A 3x1 RGBA PNG: the given alpha per pixel. */
function rgba(alphas: number[]): UploadedFile {
  const data = new Uint8Array(alphas.flatMap((a, i) => [10 * i, 20, 30, a]));
  return {
    data: encode({ width: alphas.length, height: 1, data, channels: 4, depth: 8 }),
    filename: 'm.png',
    contentType: 'image/png',
  };
}
const image: UploadedFile = rgba([255, 255, 255]);
const b64 = (file: UploadedFile) => Buffer.from(file.data).toString('base64');

function collect() {
  const warnings: { param?: string | null }[] = [];
  return { warnings, context: { warn: (w: { param?: string | null }) => warnings.push(w) } };
}

type Inpainting = {
  taskType: string;
  inPaintingParams: { image: string; text: string; maskImage: string };
  imageGenerationConfig: Record<string, unknown>;
};

describe('convertToNovaEditRequest', () => {
  it('inpaints with the mask converted: transparent -> pure black (edit), opaque -> pure white (keep), RGB', () => {
    const { context } = collect();
    const body = convertToNovaEditRequest(
      { model: MODEL, prompt: 'Add a hat', images: [image], mask: rgba([0, 255, 0]), n: 2, quality: 'high' },
      context,
    ) as Inpainting;
    expect(body.taskType).toBe('INPAINTING');
    expect(body.inPaintingParams.image).toBe(b64(image));
    expect(body.inPaintingParams.text).toBe('Add a hat');
    expect(body.imageGenerationConfig).toEqual({ numberOfImages: 2, quality: 'premium' });
    const mask = decode(Buffer.from(body.inPaintingParams.maskImage, 'base64'));
    expect({ width: mask.width, height: mask.height, channels: mask.channels }).toEqual({
      width: 3,
      height: 1,
      channels: 3,
    });
    expect([...mask.data]).toEqual([0, 0, 0, 255, 255, 255, 0, 0, 0]);
  });

  it('edits without a mask as IMAGE_VARIATION with the prompt, every image, size as width and height', () => {
    const { context, warnings } = collect();
    const second = rgba([255, 128, 255]);
    const body = convertToNovaEditRequest(
      { model: MODEL, prompt: 'In watercolour', images: [image, second], size: '1024x768', user: 'u1' },
      context,
    );
    expect(body).toEqual({
      taskType: 'IMAGE_VARIATION',
      imageVariationParams: { images: [b64(image), b64(second)], text: 'In watercolour' },
      imageGenerationConfig: { numberOfImages: 1, quality: 'standard', width: 1024, height: 768 },
    });
    expect(warnings.map((w) => w.param)).toEqual(['user']);
  });

  it.each([
    [{ n: 6 }, 'n'],
    [{ response_format: 'url' as const }, 'response_format'],
    [{ background: 'transparent' as const }, 'background'],
    [{ output_format: 'jpeg' as const }, 'output_format'],
    [{ size: '1024x1024', mask: rgba([0, 0, 0]) }, 'size'],
    [{ images: [image, image], mask: rgba([0, 0, 0]) }, 'image'],
    [{ images: Array.from({ length: 6 }, () => image) }, 'image'],
    [{ mask: { data: new Uint8Array([1, 2, 3]) } }, 'mask'],
    [{ model: 'amazon.titan-image-generator-v2:0' }, 'model'],
  ])('refuses %j with a 400 naming %s', (extra, param) => {
    const { context } = collect();
    expect(() =>
      convertToNovaEditRequest({ model: MODEL, prompt: 'x', images: [image], ...extra } as never, context),
    ).toThrow(expect.objectContaining({ status: 400, param }));
  });
});

describe('convertToNovaVariationRequest', () => {
  it('sends the image without text; n and size as numberOfImages, width and height', () => {
    const { context } = collect();
    expect(convertToNovaVariationRequest({ model: MODEL, image, n: 3, size: '512x512' }, context)).toEqual({
      taskType: 'IMAGE_VARIATION',
      imageVariationParams: { images: [b64(image)] },
      imageGenerationConfig: { numberOfImages: 3, quality: 'standard', width: 512, height: 512 },
    });
  });

  it.each([
    [{ size: '256x256' as const }, 'size'],
    [{ n: 10 }, 'n'],
    [{ response_format: 'url' as const }, 'response_format'],
  ])('refuses %j with a 400 naming %s', (extra, param) => {
    const { context } = collect();
    expect(() => convertToNovaVariationRequest({ model: MODEL, image, ...extra }, context)).toThrow(
      expect.objectContaining({ status: 400, param }),
    );
  });
});
