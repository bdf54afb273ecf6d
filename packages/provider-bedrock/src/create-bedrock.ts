import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  type ImagesResponse,
  type ProviderAdapter,
  readUpstreamJson,
  reportCapabilities,
} from '@switchyard/core';
import { anthropicEventsResult, anthropicJsonResult } from '@switchyard/provider-anthropic';
import { z } from 'zod';
import { isBedrockClaude, toBedrockInvokeBody } from './bedrock-anthropic-messages.js';
import { convertBedrockImageResponse, convertToBedrockImageRequest } from './bedrock-images.js';
import { convertToNovaEditRequest, convertToNovaVariationRequest } from './nova-canvas-edits.js';
import { bedrockInvokeEvents } from './bedrock-invoke-stream.js';
import { invokeBedrockEmbeddings } from './bedrock-embeddings.js';
import { bedrockTransport } from './bedrock-transport.js';
import { bedrockImageResponseSchema, bedrockModelListSchema, converseResponseSchema } from './bedrock-api.js';
import { convertConverseResponse } from './convert-converse-response.js';
import { convertConverseStream } from './convert-converse-stream.js';
import { convertToConverseRequest } from './convert-to-converse-request.js';
import { decodeEventStream } from './decode-event-stream.js';
import { mapBedrockError } from './map-bedrock-error.js';

/**
 * The CountTokens answer: `{"inputTokens": N}` (tokens).
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CountTokens.html
 */
const countTokensSchema = z.looseObject({ inputTokens: z.number().int().min(0) });

import type { BedrockOptions } from './bedrock-options.js';

export type { BedrockOptions } from './bedrock-options.js';

/**
 * An adapter for Amazon Bedrock, every request signed with SigV4:
 * - `chatCompletions` -> `POST /model/{modelId}/converse`, or `/converse-stream` for `stream: true` (binary
 *   `application/vnd.amazon.eventstream` frames decoded with `@smithy/eventstream-codec`); every model family Bedrock
 *   serves through Converse (Claude, Nova, Llama, Mistral, Cohere Command...). See {@link convertToConverseRequest},
 *   {@link convertConverseResponse} and {@link convertConverseStream}.
 * - `embeddings` -> `POST /model/{modelId}/invoke` for Amazon Titan Text Embeddings (one call per input, run
 *   concurrently) and Cohere Embed (one call per batch); usage from `inputTextTokenCount` or the
 *   `x-amzn-bedrock-input-token-count` header. See {@link planBedrockEmbeddings}.
 * - `imageGenerations` -> `POST /model/{modelId}/invoke` for Amazon Nova Canvas and Titan Image Generator (base64).
 *   `imageEdits` -> the same for Nova Canvas: `INPAINTING` with a mask (converted to Nova's, black = edit),
 *   `IMAGE_VARIATION` with the prompt without one; `imageVariations` -> `IMAGE_VARIATION` without text. See
 *   {@link convertToNovaEditRequest} and {@link convertToNovaVariationRequest}.
 * - `anthropicMessages` (the `/v1/messages` pass-through, Claude ids only: see `isBedrockClaude`) -> `POST
 *   /model/{modelId}/invoke`, or `/invoke-with-response-stream` for `stream: true`, with Anthropic's native body
 *   ({@link toBedrockInvokeBody}: `anthropic_version: "bedrock-2023-05-31"`, the client's betas as `anthropic_beta`);
 *   the answer is Anthropic's message, or its stream events decoded from the `chunk` frames, unchanged.
 *   `anthropicCountTokens` -> `POST /model/{modelId}/count-tokens` (CountTokens) with that body (`max_tokens: 1` when
 *   it has none, as InvokeModel requires one).
 * - `listModels` -> `GET {controlBaseURL}/foundation-models` (ListFoundationModels): the region's foundation models.
 * Audio is absent (400 `unsupported_operation`). Throws GatewayError: Bedrock exceptions mapped by
 * {@link mapBedrockError}; 502 `upstream_invalid_response` naming the provider for an answer or event payload that is
 * not JSON or not of the documented shape (the zod schemas of `bedrock-api.ts`, unknown fields kept); 502/504 for
 * transport failures; the abort reason when `context.signal` aborts.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/welcome.html
 */
export function createBedrock(options: BedrockOptions): ProviderAdapter {
  const transport = bedrockTransport(options);
  const { send, sendEventStream, modelURL, control, secrets } = transport;

  /** `POST /model/{model}/invoke` with an image model's body; its `{images, error}` answer as OpenAI's images. */
  async function invokeImageModel(model: string, body: unknown, context: AdapterCallContext): Promise<ImagesResponse> {
    const response = await send(modelURL(model, 'invoke'), context, body);
    return convertBedrockImageResponse(
      await readUpstreamJson(context.provider, response, context.signal, bedrockImageResponseSchema),
    );
  }

  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'bedrock',

    async chatCompletions(request, context) {
      const { body, warnings } = convertToConverseRequest(request);
      for (const warning of warnings) context.warn(warning);
      if (request.stream) {
        const response = await sendEventStream(modelURL(request.model, 'converse-stream'), context, body);
        const requestId = String(response.headers['x-amzn-requestid'] ?? context.requestId);
        return convertConverseStream(decodeEventStream(response.body), {
          provider: context.provider,
          model: request.model,
          requestId,
          signal: context.signal,
          secrets,
        });
      }
      const response = await send(modelURL(request.model, 'converse'), context, body);
      const requestId = String(response.headers['x-amzn-requestid'] ?? context.requestId);
      return convertConverseResponse(
        await readUpstreamJson(context.provider, response, context.signal, converseResponseSchema),
        request.model,
        requestId,
      );
    },

    passesThrough(_operation, model) {
      return isBedrockClaude(model);
    },

    async anthropicMessages(request, context) {
      const body = toBedrockInvokeBody(request, context.clientHeaders);
      const model = String(request.model);
      if (request.stream === true) {
        const response = await sendEventStream(modelURL(model, 'invoke-with-response-stream'), context, body);
        return anthropicEventsResult(
          context.provider,
          bedrockInvokeEvents(decodeEventStream(response.body), context.provider, secrets),
          secrets,
        );
      }
      return anthropicJsonResult(
        context.provider,
        await send(modelURL(model, 'invoke'), context, body),
        context.signal,
      );
    },

    async anthropicCountTokens(request, context) {
      const body = toBedrockInvokeBody(request, context.clientHeaders);
      if (body.max_tokens === undefined) body.max_tokens = 1;
      const response = await send(modelURL(String(request.model), 'count-tokens'), context, {
        input: { invokeModel: { body: JSON.stringify(body) } },
      });
      return {
        input_tokens: (await readUpstreamJson(context.provider, response, context.signal, countTokensSchema))
          .inputTokens,
      };
    },

    embeddings: (request, context) => invokeBedrockEmbeddings(transport, request, context),

    imageGenerations: (request, context) =>
      invokeImageModel(request.model, convertToBedrockImageRequest(request), context),
    imageEdits: (request, context) =>
      invokeImageModel(request.model, convertToNovaEditRequest(request, context), context),
    imageVariations: (request, context) =>
      invokeImageModel(request.model, convertToNovaVariationRequest(request, context), context),

    async listModels(context) {
      const response = await send(`${control}/foundation-models`, context);
      const list = await readUpstreamJson(context.provider, response, context.signal, bedrockModelListSchema);
      // `inputModalities` (TEXT, IMAGE, EMBEDDING) says whether a model takes images
      // (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_FoundationModelSummary.html); nothing else we route on.
      return (list.modelSummaries ?? []).map((m) => {
        const inputs = Array.isArray(m.inputModalities) ? m.inputModalities : undefined;
        const capabilities = reportCapabilities({ vision: inputs?.includes('IMAGE') });
        return { id: m.modelId, ...(capabilities && { capabilities }) };
      });
    },
  };
}
