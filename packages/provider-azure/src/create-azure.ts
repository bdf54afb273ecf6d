import {
  ADAPTER_SPEC_VERSION,
  type ProviderAdapter,
  chatCompletionSchema,
  embeddingResponseSchema,
  textCompletionSchema,
  isPlainChatCompletion,
  isPlainEmbeddingResponse,
  readUpstreamAnswer,
  readUpstreamEmbeddings,
  readUpstreamJson,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { openAIBatchApi, parseOpenAIChunkStream, readUpstreamEvents, webSocketURL } from '@switchyard/provider-openai';
import { azureModelListSchema } from './azure-api.js';
import { dropPromptFilterChunks } from './drop-prompt-filter-chunks.js';
import { mapAzureError } from './map-azure-error.js';
import { azureMediaOperations } from './azure-media-operations.js';
import { type AzureOptions, DEFAULT_AZURE_REALTIME_API_VERSION } from './azure-options.js';
import { azureTransport } from './azure-transport.js';

export { type AzureOptions, DEFAULT_AZURE_API_VERSION, DEFAULT_AZURE_REALTIME_API_VERSION } from './azure-options.js';

/**
 * The endpoints Azure OpenAI runs global batches of, named without `/v1` in the batch and its lines (`/chat/completions`)
 * on the GA data-plane versions.
 * @see https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/batch
 */
export const AZURE_BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/embeddings'];

/**
 * An adapter for Azure OpenAI. The request's `model` (the configured `upstream`) is the DEPLOYMENT name; every call is
 * `{baseURL}/openai/deployments/{deployment}/{operation}?api-version={apiVersion}` with `api-key` (or
 * `Authorization: Bearer <Entra token>`) and the gateway's `x-request-id`:
 * - `chatCompletions` -> `chat/completions` (streams: Azure's prompt-filter preamble chunk is dropped; the
 *   `finish_reason: "content_filter"` and `content_filter_results` Azure adds pass through);
 * - `completions` -> `completions` (legacy; streams as `text_completion` chunks);
 * - `imageEdits` -> `images/edits` (multipart; streamed `image_edit.*` events passed on). Azure has no image variations
 *   (`images/variations` answers 404 there), so this adapter has no `imageVariations`;
 * - `embeddings` -> `embeddings`, `imageGenerations` -> `images/generations`, `speech` -> `audio/speech` (bytes piped),
 *   `transcriptions` -> `audio/transcriptions`, `translations` -> `audio/translations` (multipart);
 * - `realtime` -> a WebSocket to `{baseURL}/openai/realtime?api-version={realtimeApiVersion}&deployment={deployment}`
 *   (`wss:`), with `api-key` (or the Entra token); events pass unchanged;
 * - `listModels` -> `GET {baseURL}/openai/models?api-version=...`: the models the resource can deploy (Azure's data
 *   plane has no deployment list; address deployments by name).
 * - `batches` -> `{baseURL}/openai/files` and `/openai/batches` (global batch deployments, half price): OpenAI's Batch
 *   API with endpoints named without `/v1`.
 * Bodies and answers are OpenAI's wire format, so provider-openai's stream parser, form builder and error mapping are
 * reused. Throws GatewayError: see {@link mapAzureError} (content filter -> 400 `content_filter`, `x-ms-retry-after-ms`
 * honoured), 502/504 for transport failures, 502 `upstream_invalid_response` naming the provider for an answer or
 * stream event that is not JSON or not of the documented shape (core's zod schemas and {@link azureModelListSchema},
 * unknown fields kept), the abort reason when `context.signal` aborts.
 * Throws a plain Error at creation when neither `apiKey` nor `azureADToken` is given.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/reference
 */
export function createAzure(options: AzureOptions): ProviderAdapter {
  if (!options.apiKey && !options.azureADToken) throw new Error('Azure OpenAI needs api_key or azure_ad_token.');
  const transport = azureTransport(options);
  const { root, secrets, baseHeaders, send, postJson, call } = transport;

  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'azure',

    async chatCompletions(request, context) {
      const response = await postJson(request.model, 'chat/completions', request, context);
      if (request.stream) {
        const contentType = String(response.headers['content-type'] ?? '');
        if (!contentType.startsWith('text/event-stream')) {
          await response.body.dump().catch(() => {});
          throw upstreamInvalidResponseError(
            context.provider,
            `a stream was asked for but it sent '${contentType || 'no content type'}'.`,
          );
        }
        return dropPromptFilterChunks(parseOpenAIChunkStream(context.provider, response.body, context.signal, secrets));
      }
      return readUpstreamAnswer(
        context.provider,
        response,
        context.signal,
        chatCompletionSchema,
        isPlainChatCompletion,
      );
    },

    async completions(request, context) {
      const response = await postJson(request.model, 'completions', request, context);
      if (request.stream)
        return readUpstreamEvents(
          context.provider,
          response,
          context.signal,
          secrets,
          textCompletionSchema,
          'a text_completion chunk',
          (_event, parsed) => (parsed as { object?: unknown }).object === 'text_completion',
        );
      return readUpstreamJson(context.provider, response, context.signal, textCompletionSchema);
    },

    async embeddings(request, context) {
      const response = await postJson(request.model, 'embeddings', request, context);
      return readUpstreamEmbeddings(
        context.provider,
        response,
        context.signal,
        embeddingResponseSchema,
        isPlainEmbeddingResponse,
      );
    },

    ...azureMediaOperations(transport),

    realtime(request, context) {
      const version = encodeURIComponent(options.realtimeApiVersion ?? DEFAULT_AZURE_REALTIME_API_VERSION);
      return {
        url: `${webSocketURL(root)}/realtime?api-version=${version}&deployment=${encodeURIComponent(request.model)}`,
        headers: { ...context.headers, ...baseHeaders, 'x-request-id': context.requestId },
        secrets,
      };
    },

    async listModels(context) {
      const response = await send('models', context, { method: 'GET' });
      const list = await readUpstreamJson(context.provider, response, context.signal, azureModelListSchema);
      return (list.data ?? []).map((m) => ({ id: m.id, created: m.created_at }));
    },

    batches: openAIBatchApi({
      call,
      endpoints: AZURE_BATCH_ENDPOINTS,
      endpointPath: (endpoint) => endpoint.replace(/^\/v1\//, '/'),
    }),
  };
}
