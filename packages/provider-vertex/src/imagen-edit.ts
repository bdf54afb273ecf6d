import {
  type AdapterCallContext,
  type ImageEditRequest,
  type ParameterRules,
  type UploadedFile,
  checkRequestParameters,
  invalidRequestError,
} from '@switchyard/core';
import { IMAGEN_MAX_IMAGES } from '@switchyard/provider-google';
import { decode, encode } from 'fast-png';

/**
 * Values of OpenAI image edit fields that ask for nothing Imagen does not do anyway: accepted and not sent, without a
 * warning.
 */
const NEUTRAL: Record<string, readonly unknown[]> = {
  quality: ['auto', 'standard'],
  background: ['auto', 'opaque'],
  output_format: ['png'],
  size: ['auto'],
  partial_images: [0],
  response_format: ['b64_json'],
};

/**
 * What the Vertex adapter does with each OpenAI `images/edits` field on Imagen's editing model
 * (`imagen-3.0-capability-001`): `model`, `prompt`, `n` (-> `sampleCount`), the image and the `mask` are translated; a
 * value that would change what the answer contains is refused with 400 naming it: `n` above 4, `response_format: "url"`
 * (Imagen answers base64 only), `background: "transparent"`, `output_format` other than `png`, `size` other than
 * `auto` (an edit keeps the image's size). `stream: true` is served by the gateway (one `image_edit.completed` event
 * per image: Imagen sends no partial images). The rest (`quality`, `input_fidelity`, `output_compression`,
 * `partial_images`, `user`, unknown fields) is dropped with a warning naming each.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/imagen-api-edit
 */
export const IMAGEN_EDIT_PARAMETERS: ParameterRules = {
  upstream: 'Imagen editing',
  handled: new Set(['model', 'prompt', 'n', 'images', 'mask', 'stream']),
  refused: [
    {
      param: 'n',
      isSet: (v) => typeof v === 'number' && v > IMAGEN_MAX_IMAGES,
      why: `Imagen makes 1 to ${IMAGEN_MAX_IMAGES} images per request.`,
    },
    { param: 'response_format', isSet: (v) => v != null, why: "Imagen returns images as base64 only; use 'b64_json'." },
    { param: 'background', isSet: (v) => v === 'transparent', why: 'Imagen makes opaque images only.' },
    { param: 'output_format', isSet: (v) => v != null, why: 'Imagen answers with PNG images; ask for png.' },
    { param: 'size', isSet: (v) => v != null, why: "an edit keeps the image's size; send 'auto'." },
  ],
};

/**
 * OpenAI's edit mask (a PNG whose fully transparent pixels, alpha 0, mark where to edit) as a black-and-white PNG of the
 * same size, 8 bits per channel: `edit` (0..255) where the mask is transparent, `keep` elsewhere, with `channels` 1
 * (grayscale) or 3 (RGB). Imagen wants white = edit ({@link imagenMaskOf}); Bedrock's Nova Canvas black = edit.
 * Throws 400 naming `mask` for a file that is not a PNG or has no alpha channel (OpenAI requires one).
 * @see https://platform.openai.com/docs/api-reference/images/createEdit#images-createedit-mask
 */
export function convertOpenAIEditMask(mask: UploadedFile, edit: number, keep: number, channels: 1 | 3 = 1): Uint8Array {
  let png: ReturnType<typeof decode>;
  try {
    png = decode(mask.data);
  } catch (error) {
    throw Object.assign(invalidRequestError("Invalid 'mask': it is not a PNG image.", 'mask', 'invalid_value'), {
      cause: error,
    });
  }
  const alpha = png.channels === 4 ? 3 : png.channels === 2 ? 1 : -1;
  if (alpha < 0)
    throw invalidRequestError(
      "Invalid 'mask': it needs an alpha channel (transparent where the image is to be edited).",
      'mask',
      'invalid_value',
    );
  const pixels = png.width * png.height;
  const out = new Uint8Array(pixels * channels).fill(keep);
  for (let i = 0; i < pixels; i++)
    if (png.data[i * png.channels + alpha] === 0) out.fill(edit, i * channels, (i + 1) * channels);
  return encode({ width: png.width, height: png.height, data: out, channels, depth: 8 });
}

/**
 * OpenAI's edit mask as Imagen's user-provided mask (a grayscale PNG whose non-zero pixels mark where to edit): white
 * where the mask is transparent, black elsewhere, the same size. Throws as {@link convertOpenAIEditMask}.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/image/edit-insert-objects
 */
export function imagenMaskOf(mask: UploadedFile): Uint8Array {
  return convertOpenAIEditMask(mask, 255, 0);
}

/**
 * OpenAI image edit -> Imagen editing `:predict` body: `{instances: [{prompt, referenceImages: [{referenceType:
 * "REFERENCE_TYPE_RAW", referenceId: 1, referenceImage: {bytesBase64Encoded}}, mask?]}], parameters: {sampleCount,
 * editMode?}}`. With a `mask` (converted by {@link imagenMaskOf}) it is `REFERENCE_TYPE_MASK` with
 * `maskMode: MASK_MODE_USER_PROVIDED` and `editMode: EDIT_MODE_INPAINT_INSERTION`; without, a mask-free edit. Fields
 * as {@link IMAGEN_EDIT_PARAMETERS} says (400 or a warning through `context.warn`); more than one image is a 400
 * naming `image`. The answer is Imagen's `{predictions: [{bytesBase64Encoded}]}` (see `convertImagenResponse`).
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/imagen-api-edit
 */
export function convertToImagenEditRequest(
  request: ImageEditRequest,
  context: Pick<AdapterCallContext, 'warn'>,
): unknown {
  const fields: Record<string, unknown> = { ...request };
  for (const [name, values] of Object.entries(NEUTRAL)) if (values.includes(fields[name])) delete fields[name];
  for (const warning of checkRequestParameters(fields, IMAGEN_EDIT_PARAMETERS)) context.warn(warning);
  if (request.images.length > 1)
    throw invalidRequestError(
      `Invalid 'image': Imagen edits one image; got ${request.images.length}.`,
      'image',
      'unsupported_parameter',
    );
  const base64 = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  const referenceImages: unknown[] = [
    {
      referenceType: 'REFERENCE_TYPE_RAW',
      referenceId: 1,
      referenceImage: { bytesBase64Encoded: base64(request.images[0]!.data) },
    },
  ];
  if (request.mask) {
    referenceImages.push({
      referenceType: 'REFERENCE_TYPE_MASK',
      referenceId: 2,
      referenceImage: { bytesBase64Encoded: base64(imagenMaskOf(request.mask)) },
      maskImageConfig: { maskMode: 'MASK_MODE_USER_PROVIDED' },
    });
  }
  const parameters: Record<string, unknown> = { sampleCount: request.n ?? 1 };
  if (request.mask) parameters.editMode = 'EDIT_MODE_INPAINT_INSERTION';
  return { instances: [{ prompt: request.prompt, referenceImages }], parameters };
}
