import {
  type AdapterCallContext,
  type ChatCompletionRequest,
  type GatewayWarning,
  type ProviderAdapter,
  checkRequestParameters,
  parseSSEStream,
  readUpstreamJson,
} from '@switchyard/core';
import {
  checkGeminiParameters,
  checkImagenParameters,
  convertGeminiResponse,
  convertGeminiStream,
  convertImagenResponse,
  convertToGeminiRequest,
  convertToImagenRequest,
  geminiGenerateContentResponseSchema,
  imagenPredictResponseSchema,
} from '@switchyard/provider-google';
import { convertToImagenEditRequest } from './imagen-edit.js';
import { vertexEmbeddingResponseSchema } from './vertex-api.js';
import {
  VERTEX_EMBEDDING_PARAMETERS,
  convertToVertexEmbeddingRequest,
  convertVertexEmbeddingResponse,
} from './vertex-embeddings.js';
import { type VertexTransport, googleErrors } from './vertex-transport.js';

/**
 * A chat completion by a Gemini model on Vertex (Google's publisher): provider-google's parameter rule and translation,
 * to `:generateContent`, or `:streamGenerateContent?alt=sse` for streams.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference
 */
export async function geminiChatCompletion(
  { send, modelURL }: VertexTransport,
  request: ChatCompletionRequest,
  context: AdapterCallContext,
): ReturnType<NonNullable<ProviderAdapter['chatCompletions']>> {
  checkGeminiParameters(request, context);
  const warnings: GatewayWarning[] = [];
  const body = convertToGeminiRequest(request, warnings);
  for (const warning of warnings) context.warn(warning);
  if (request.stream) {
    const response = await send(
      `${modelURL('google', request.model, 'streamGenerateContent')}?alt=sse`,
      body,
      context,
      googleErrors(context),
    );
    return convertGeminiStream(parseSSEStream(response.body), context.provider, request.model, context.signal);
  }
  const response = await send(
    modelURL('google', request.model, 'generateContent'),
    body,
    context,
    googleErrors(context),
  );
  return convertGeminiResponse(
    await readUpstreamJson(context.provider, response, context.signal, geminiGenerateContentResponseSchema),
    request.model,
  );
}

/**
 * Vertex's Google-publisher operations besides chat: `embeddings` -> `:predict` (see `convertToVertexEmbeddingRequest`),
 * `imageGenerations` -> Imagen `:predict`, `imageEdits` -> Imagen's editing model `:predict`.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/imagen-api
 */
export function vertexGoogleOperations({
  send,
  modelURL,
}: VertexTransport): Required<Pick<ProviderAdapter, 'embeddings' | 'imageGenerations' | 'imageEdits'>> {
  return {
    async embeddings(request, context) {
      for (const warning of checkRequestParameters(request, VERTEX_EMBEDDING_PARAMETERS)) context.warn(warning);
      const response = await send(
        modelURL('google', request.model, 'predict'),
        convertToVertexEmbeddingRequest(request),
        context,
        googleErrors(context),
      );
      return convertVertexEmbeddingResponse(
        await readUpstreamJson(context.provider, response, context.signal, vertexEmbeddingResponseSchema),
        request.model,
      );
    },

    async imageGenerations(request, context) {
      checkImagenParameters(request, context);
      const response = await send(
        modelURL('google', request.model, 'predict'),
        convertToImagenRequest(request),
        context,
        googleErrors(context),
      );
      return convertImagenResponse(
        await readUpstreamJson(context.provider, response, context.signal, imagenPredictResponseSchema),
      );
    },

    async imageEdits(request, context) {
      const response = await send(
        modelURL('google', request.model, 'predict'),
        convertToImagenEditRequest(request, context),
        context,
        googleErrors(context),
      );
      return convertImagenResponse(
        await readUpstreamJson(context.provider, response, context.signal, imagenPredictResponseSchema),
      );
    },
  };
}
