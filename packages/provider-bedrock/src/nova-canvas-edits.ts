import {
  type AdapterCallContext,
  type ImageEditRequest,
  type ImageVariationRequest,
  type ParameterRules,
  type UploadedFile,
  checkRequestParameters,
  invalidRequestError,
} from '@switchyard/core';
import { convertOpenAIEditMask } from '@switchyard/provider-vertex';

/** Most images one Nova Canvas request makes (`numberOfImages` 1..5). */
export const NOVA_MAX_IMAGES = 5;
/** Most reference images `IMAGE_VARIATION` takes (`imageVariationParams.images`, 1..5). */
export const NOVA_MAX_VARIATION_IMAGES = 5;

/** Values of OpenAI fields that ask for nothing Nova Canvas does not do anyway: accepted and not sent, no warning. */
const NEUTRAL: Record<string, readonly unknown[]> = {
  quality: ['auto'],
  background: ['auto', 'opaque'],
  output_format: ['png'],
  size: ['auto'],
  partial_images: [0],
  response_format: ['b64_json'],
};

const refusedCommon: ParameterRules['refused'] = [
  {
    param: 'n',
    isSet: (v) => typeof v === 'number' && v > NOVA_MAX_IMAGES,
    why: `Nova Canvas makes 1 to ${NOVA_MAX_IMAGES} images per request.`,
  },
  { param: 'response_format', isSet: (v) => v != null, why: "Bedrock returns images as base64 only; use 'b64_json'." },
];

/**
 * What the Bedrock adapter does with each OpenAI `images/edits` field on Nova Canvas: `model`, `prompt` (-> `text`),
 * `n` (-> `numberOfImages`), `quality` (`high` -> `premium`, else `standard`), the images, the `mask` and `size` (a
 * mask-free edit only) are translated; `stream: true` is served by the gateway. Refused with 400 naming it: `n` above 5,
 * `response_format: "url"`, `background: "transparent"`, `output_format` other than `png`, `size` with a mask (an
 * inpainting keeps the image's size). The rest (`input_fidelity`, `output_compression`, `partial_images`, `user`,
 * unknown fields) is dropped with a warning naming each.
 * @see https://docs.aws.amazon.com/nova/latest/userguide/image-gen-req-resp-structure.html
 */
export const NOVA_EDIT_PARAMETERS: ParameterRules = {
  upstream: 'Nova Canvas',
  handled: new Set(['model', 'prompt', 'n', 'quality', 'size', 'images', 'mask', 'stream']),
  refused: [
    ...refusedCommon,
    { param: 'background', isSet: (v) => v === 'transparent', why: 'Nova Canvas makes opaque images only.' },
    { param: 'output_format', isSet: (v) => v != null, why: 'Nova Canvas answers with PNG images; ask for png.' },
  ],
};

/**
 * What the Bedrock adapter does with each OpenAI `images/variations` field on Nova Canvas: `model`, `n`, `size` and the
 * image are translated; `n` above 5, `response_format: "url"` and `size: "256x256"` (Nova's sides are 320 to 4096
 * pixels) are refused with 400; `user` and unknown fields are dropped with a warning.
 * @see https://docs.aws.amazon.com/nova/latest/userguide/image-gen-req-resp-structure.html
 */
export const NOVA_VARIATION_PARAMETERS: ParameterRules = {
  upstream: 'Nova Canvas',
  handled: new Set(['model', 'n', 'size', 'image']),
  refused: [
    ...refusedCommon,
    { param: 'size', isSet: (v) => v === '256x256', why: 'Nova Canvas makes images of 320 to 4096 pixels a side.' },
  ],
};

const base64 = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');

function requireNovaCanvas(model: string): void {
  if (!model.startsWith('amazon.nova-canvas'))
    throw invalidRequestError(
      `The model '${model}' cannot edit images on Bedrock: image edits and variations need Amazon Nova Canvas (amazon.nova-canvas-*).`,
      'model',
      'unsupported_model',
    );
}

/** `{numberOfImages, quality, width?, height?}` of a Nova Canvas request (`size` `WxH` -> width and height, pixels). */
function generationConfig(n: number | undefined, quality: unknown, size: string | undefined): Record<string, unknown> {
  const config: Record<string, unknown> = {
    numberOfImages: n ?? 1,
    quality: quality === 'high' || quality === 'hd' ? 'premium' : 'standard',
  };
  const match = size ? /^(\d+)x(\d+)$/.exec(size) : null;
  if (match) {
    config.width = Number(match[1]);
    config.height = Number(match[2]);
  }
  return config;
}

/** The request's fields without the neutral values, checked against `rules` (warnings through `context.warn`). */
function checkFields(request: object, rules: ParameterRules, context: Pick<AdapterCallContext, 'warn'>): void {
  const fields: Record<string, unknown> = { ...request };
  for (const [name, values] of Object.entries(NEUTRAL)) if (values.includes(fields[name])) delete fields[name];
  for (const warning of checkRequestParameters(fields, rules)) context.warn(warning);
}

/**
 * OpenAI image edit -> Nova Canvas InvokeModel body. With a `mask`: `{taskType: "INPAINTING", inPaintingParams: {image,
 * text, maskImage}, imageGenerationConfig}`, the mask converted from OpenAI's (transparent = edit) to Nova's (pure
 * black = edit, pure white = keep, an RGB PNG) and one image only (400 naming `image` for more); `size` other than
 * `auto` is a 400 naming it. Without a mask: `{taskType: "IMAGE_VARIATION", imageVariationParams: {images, text},
 * imageGenerationConfig}` with 1..5 images (400 naming `image` for more). Fields as {@link NOVA_EDIT_PARAMETERS} says.
 * Throws 400 `unsupported_model` for a model other than `amazon.nova-canvas-*`, 400 naming `mask` for a mask that is
 * not a PNG with an alpha channel. The answer is `{images: [base64...]}` (see `convertBedrockImageResponse`).
 * @see https://docs.aws.amazon.com/nova/latest/userguide/image-gen-req-resp-structure.html
 * @see https://docs.aws.amazon.com/nova/latest/userguide/image-gen-access.html#image-gen-masking
 */
export function convertToNovaEditRequest(
  request: ImageEditRequest,
  context: Pick<AdapterCallContext, 'warn'>,
): unknown {
  requireNovaCanvas(request.model);
  checkFields(request, NOVA_EDIT_PARAMETERS, context);
  const size = request.size === 'auto' ? undefined : request.size;
  if (request.mask) {
    if (request.images.length > 1)
      throw invalidRequestError(
        `Invalid 'image': Nova Canvas inpaints one image; got ${request.images.length}.`,
        'image',
        'unsupported_parameter',
      );
    if (size)
      throw invalidRequestError(
        "Invalid 'size': an inpainting keeps the image's size; send 'auto'.",
        'size',
        'unsupported_parameter',
      );
    return {
      taskType: 'INPAINTING',
      inPaintingParams: {
        image: base64(request.images[0]!.data),
        text: request.prompt,
        maskImage: base64(convertOpenAIEditMask(request.mask, 0, 255, 3)),
      },
      imageGenerationConfig: generationConfig(request.n, request.quality, undefined),
    };
  }
  return {
    taskType: 'IMAGE_VARIATION',
    imageVariationParams: { images: variationImages(request.images), text: request.prompt },
    imageGenerationConfig: generationConfig(request.n, request.quality, size),
  };
}

/**
 * OpenAI image variation -> Nova Canvas InvokeModel body `{taskType: "IMAGE_VARIATION", imageVariationParams: {images:
 * [image]}, imageGenerationConfig}` (no text: a variation of the image). Fields as {@link NOVA_VARIATION_PARAMETERS}
 * says. Throws 400 `unsupported_model` for a model other than `amazon.nova-canvas-*`.
 * @see https://docs.aws.amazon.com/nova/latest/userguide/image-gen-req-resp-structure.html
 */
export function convertToNovaVariationRequest(
  request: ImageVariationRequest,
  context: Pick<AdapterCallContext, 'warn'>,
): unknown {
  requireNovaCanvas(request.model);
  checkFields(request, NOVA_VARIATION_PARAMETERS, context);
  return {
    taskType: 'IMAGE_VARIATION',
    imageVariationParams: { images: variationImages([request.image]) },
    imageGenerationConfig: generationConfig(request.n, undefined, request.size),
  };
}

function variationImages(images: UploadedFile[]): string[] {
  if (images.length > NOVA_MAX_VARIATION_IMAGES)
    throw invalidRequestError(
      `Invalid 'image': Nova Canvas takes 1 to ${NOVA_MAX_VARIATION_IMAGES} images for a variation; got ${images.length}.`,
      'image',
      'unsupported_parameter',
    );
  return images.map((image) => base64(image.data));
}
