import {
  type AdapterCallContext,
  type ImageGenerationRequest,
  type ParameterRules,
  checkRequestParameters,
} from '@switchyard/core';

/** Most images one Imagen `:predict` call makes (`sampleCount`). */
export const IMAGEN_MAX_IMAGES = 4;

/**
 * Values of OpenAI image parameters that ask for nothing Imagen does not do anyway: accepted and not sent, without a
 * warning (`quality: "auto"`, `background: "opaque"`, `output_format: "png"`, `stream: false`...).
 */
const NEUTRAL: Record<string, readonly unknown[]> = {
  quality: ['auto', 'standard'],
  style: [],
  background: ['auto', 'opaque'],
  output_format: ['png'],
  moderation: ['auto'],
  stream: [false],
  partial_images: [0],
};

/**
 * What the Imagen adapters (Gemini API and Vertex AI) do with each OpenAI `images/generations` field: `model`, `prompt`,
 * `n` (-> `sampleCount`), `size` (-> `aspectRatio`) and `response_format` (`b64_json`; `url` is refused by
 * `convertToImagenRequest`) are translated; a value that would change what the answer contains is refused with 400
 * naming it: `n` above {@link IMAGEN_MAX_IMAGES}, `background: "transparent"`, `output_format` other than `png`,
 * `stream: true`, `partial_images`. The rest (`quality`, `style`, `user`, `moderation`, `output_compression`, unknown
 * fields) are hints Imagen has no field for: dropped, each named in an `unsupported_parameter` warning.
 * @see https://ai.google.dev/gemini-api/docs/imagen#imagen-model
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/imagen-api
 */
export const IMAGEN_PARAMETERS: ParameterRules = {
  upstream: 'Imagen models',
  handled: new Set(['model', 'prompt', 'n', 'size', 'response_format']),
  refused: [
    {
      param: 'n',
      isSet: (v) => typeof v === 'number' && v > IMAGEN_MAX_IMAGES,
      why: `Imagen makes 1 to ${IMAGEN_MAX_IMAGES} images per request.`,
    },
    { param: 'background', isSet: (v) => v === 'transparent', why: 'Imagen makes opaque images only.' },
    { param: 'output_format', isSet: (v) => v != null, why: 'Imagen answers with PNG images; ask for png.' },
    { param: 'stream', isSet: (v) => v === true, why: 'Imagen does not stream partial images.' },
    { param: 'partial_images', isSet: (v) => v != null, why: 'Imagen does not stream partial images.' },
  ],
};

/**
 * Applies {@link IMAGEN_PARAMETERS} to an image request before it is sent: throws the 400 GatewayError
 * (`unsupported_parameter`, naming the field) for a refused value, and reports each dropped field with
 * `context.warn` (the gateway sends it in `x-switchyard-warning`). Neutral values ({@link NEUTRAL}) pass silently.
 */
export function checkImagenParameters(
  request: ImageGenerationRequest,
  context: Pick<AdapterCallContext, 'warn'>,
): void {
  const fields: Record<string, unknown> = { ...request };
  for (const [name, values] of Object.entries(NEUTRAL)) if (values.includes(fields[name])) delete fields[name];
  for (const warning of checkRequestParameters(fields, IMAGEN_PARAMETERS)) context.warn(warning);
}
