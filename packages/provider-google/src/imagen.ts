import { type ImageGenerationRequest, type ImagesResponse, invalidRequestError } from '@switchyard/core';

const ASPECT_RATIOS = ['1:1', '3:4', '4:3', '9:16', '16:9'] as const;

function aspectRatio(size: string): string {
  const [width, height] = size.split('x').map(Number) as [number, number];
  const ratio = width / height;
  const match = ASPECT_RATIOS.find((r) => {
    const [w, h] = r.split(':').map(Number) as [number, number];
    return Math.abs(w / h - ratio) < 0.03;
  });
  if (!match)
    throw invalidRequestError(
      `Invalid 'size': Imagen makes images of aspect ratio ${ASPECT_RATIOS.join(', ')}; '${size}' is none of them.`,
      'size',
      'invalid_value',
    );
  return match;
}

/**
 * OpenAI image generation request -> Imagen `:predict` body `{instances: [{prompt}], parameters: {sampleCount,
 * aspectRatio}}`: `n` -> `sampleCount` (1..4), `size` `WxH` -> the nearest of Imagen's aspect ratios (1:1, 3:4, 4:3,
 * 9:16, 16:9; another ratio is a 400). Images come back as base64 only: `response_format: "url"` is a 400. The same
 * body serves the Gemini API (`models/{model}:predict`) and Vertex AI (`publishers/google/models/{model}:predict`).
 * @see https://ai.google.dev/gemini-api/docs/imagen
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/imagen-api
 */
export function convertToImagenRequest(request: ImageGenerationRequest): unknown {
  if (request.response_format === 'url') {
    throw invalidRequestError(
      "Invalid 'response_format': Imagen returns images as base64 only; use 'b64_json'.",
      'response_format',
      'unsupported_parameter',
    );
  }
  const parameters: Record<string, unknown> = { sampleCount: request.n ?? 1 };
  if (request.size && request.size !== 'auto') parameters.aspectRatio = aspectRatio(request.size);
  return { instances: [{ prompt: request.prompt }], parameters };
}

/**
 * Imagen `:predict` answer `{predictions: [{bytesBase64Encoded, mimeType}]}` -> OpenAI `{created, data: [{b64_json}]}`.
 * Predictions without bytes (filtered by Responsible AI, reported as `raiFilteredReason`) are left out; when all were
 * filtered the call is a 400 `content_filter`.
 */
export function convertImagenResponse(response: {
  predictions?: { bytesBase64Encoded?: string; raiFilteredReason?: string }[];
}): ImagesResponse {
  const predictions = response.predictions ?? [];
  const images = predictions.filter((p) => p.bytesBase64Encoded);
  if (images.length === 0) {
    const reason =
      predictions.find((p) => p.raiFilteredReason)?.raiFilteredReason ?? 'Imagen returned no image for this prompt.';
    throw invalidRequestError(reason, 'prompt', 'content_filter');
  }
  return { created: Math.floor(Date.now() / 1000), data: images.map((p) => ({ b64_json: p.bytesBase64Encoded! })) };
}
