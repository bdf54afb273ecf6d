import { GatewayError, type ImageGenerationRequest, type ImagesResponse, invalidRequestError } from '@switchyard/core';

/**
 * OpenAI image generation request -> InvokeModel body for Amazon Nova Canvas (`amazon.nova-canvas-*`) and Titan Image
 * Generator (`amazon.titan-image-generator-*`): `{taskType: "TEXT_IMAGE", textToImageParams: {text}, imageGenerationConfig:
 * {numberOfImages, width, height, quality}}`. `n` -> `numberOfImages` (1..5), `size` `WxH` -> width and height
 * (`auto` or none: the model's default), `quality` `hd`/`high` -> `premium`, else `standard`. Images come back as
 * base64 only: `response_format: "url"` is a 400. Throws 400 for other models or a malformed size.
 * @see https://docs.aws.amazon.com/nova/latest/userguide/image-gen-req-resp-structure.html
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-image.html
 */
export function convertToBedrockImageRequest(request: ImageGenerationRequest): unknown {
  const model = request.model;
  if (!model.startsWith('amazon.nova-canvas') && !model.startsWith('amazon.titan-image-generator')) {
    throw invalidRequestError(
      `The model '${model}' is not an image model this adapter can call on Bedrock (Amazon Nova Canvas or Titan Image Generator).`,
      'model',
      'unsupported_model',
    );
  }
  if (request.response_format === 'url') {
    throw invalidRequestError(
      "Invalid 'response_format': Bedrock returns images as base64 only; use 'b64_json'.",
      'response_format',
      'unsupported_parameter',
    );
  }
  const config: Record<string, unknown> = { numberOfImages: request.n ?? 1 };
  if (request.size && request.size !== 'auto') {
    const match = /^(\d+)x(\d+)$/.exec(request.size);
    if (!match)
      throw invalidRequestError("Invalid 'size': expected WIDTHxHEIGHT, e.g. 1024x1024.", 'size', 'invalid_value');
    config.width = Number(match[1]);
    config.height = Number(match[2]);
  }
  config.quality = request.quality === 'hd' || request.quality === 'high' ? 'premium' : 'standard';
  return { taskType: 'TEXT_IMAGE', textToImageParams: { text: request.prompt }, imageGenerationConfig: config };
}

/**
 * InvokeModel answer `{images: [base64...], error?}` -> OpenAI `{created, data: [{b64_json}]}`. A non-empty `error`
 * (Nova and Titan report blocked content there) throws 400 `content_filter`.
 */
export function convertBedrockImageResponse(answer: { images?: string[]; error?: string | null }): ImagesResponse {
  if (answer.error)
    throw new GatewayError({
      status: 400,
      type: 'invalid_request_error',
      code: 'content_filter',
      param: 'prompt',
      message: answer.error,
    });
  return { created: Math.floor(Date.now() / 1000), data: (answer.images ?? []).map((b64_json) => ({ b64_json })) };
}
