import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  type ProviderAdapter,
  type UpstreamTimeouts,
  chatCompletionSchema,
  embeddingResponseSchema,
  imagesResponseSchema,
  imageEditEventSchema,
  textCompletionSchema,
  isPlainChatCompletion,
  isPlainEmbeddingResponse,
  readUpstreamAnswer,
  readUpstreamEmbeddings,
  readUpstreamJson,
  sendUpstreamRequest,
  type UpstreamFormData,
  type UpstreamRequestOptions,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import {
  buildImageForm,
  buildTranscriptionForm,
  openAIBatchApi,
  parseOpenAIChunkStream,
  pipeUpstreamBytes,
  readTranscriptionResult,
  readUpstreamEvents,
  webSocketURL,
} from '@switchyard/provider-openai';
import { azureModelListSchema } from './azure-api.js';
import { dropPromptFilterChunks } from './drop-prompt-filter-chunks.js';
import { mapAzureError } from './map-azure-error.js';

/** The `api-version` sent when none is configured: the GA data-plane version of 2024-10-21. */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/** The `api-version` of Realtime sessions when none is configured (Azure's realtime preview of 2025-04-01). */
export const DEFAULT_AZURE_REALTIME_API_VERSION = '2025-04-01-preview';

/**
 * The endpoints Azure OpenAI runs global batches of, named without `/v1` in the batch and its lines (`/chat/completions`)
 * on the GA data-plane versions.
 * @see https://learn.microsoft.com/en-us/azure/ai-foundry/openai/how-to/batch
 */
export const AZURE_BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/embeddings'];

/** Options of {@link createAzure}. */
export interface AzureOptions {
  /** The resource endpoint, e.g. `https://my-resource.openai.azure.com` (a trailing `/openai` is accepted). */
  baseURL: string;
  /** Resource key, sent as the `api-key` header. One of `apiKey` and `azureADToken` is required. */
  apiKey?: string;
  /** Microsoft Entra ID (Azure AD) access token, sent as `Authorization: Bearer`; wins over `apiKey`. */
  azureADToken?: string;
  /** The `api-version` query parameter of every call. Default {@link DEFAULT_AZURE_API_VERSION}. */
  apiVersion?: string;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** The `api-version` of Realtime sessions (`/openai/realtime`). Default {@link DEFAULT_AZURE_REALTIME_API_VERSION}. */
  realtimeApiVersion?: string;
  /** Per-call upstream limits, ms (see core's `UpstreamTimeouts`). */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
}

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
  const root = `${options.baseURL.replace(/\/+$/, '').replace(/\/openai$/, '')}/openai`;
  const apiVersion = encodeURIComponent(options.apiVersion ?? DEFAULT_AZURE_API_VERSION);
  const secrets = [options.apiKey, options.azureADToken];
  const auth: Record<string, string> = options.azureADToken
    ? { authorization: `Bearer ${options.azureADToken}` }
    : { 'api-key': options.apiKey as string };
  const baseHeaders = { ...options.headers, ...auth };

  type AzureInit = {
    body?: string | Uint8Array | readonly Uint8Array[] | UpstreamFormData;
    headers?: Record<string, string>;
    json?: boolean;
    method?: 'GET' | 'POST';
  };
  const call = (path: string, context: AdapterCallContext, init: AzureInit): UpstreamRequestOptions => ({
    provider: context.provider,
    url: `${root}/${path.replace(/^\//, '')}?api-version=${apiVersion}`,
    method: init.method,
    headers: {
      ...context.headers,
      ...baseHeaders,
      'x-request-id': context.requestId,
      ...(init.json ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    body: init.body,
    signal: context.signal,
    upstream: context.upstream,
    timeouts: options.timeouts,
    mapError: (status, text, headers) => mapAzureError(context.provider, status, text, headers, secrets),
  });
  const send = (path: string, context: AdapterCallContext, init: AzureInit) =>
    sendUpstreamRequest(call(path, context, init));
  const deployment = (model: string, operation: string) => `deployments/${encodeURIComponent(model)}/${operation}`;
  const postJson = (model: string, operation: string, body: unknown, context: AdapterCallContext) =>
    send(deployment(model, operation), context, { body: JSON.stringify(body), json: true });

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

    async transcriptions(request, context) {
      return readTranscriptionResult(
        context.provider,
        await send(deployment(request.model, 'audio/transcriptions'), context, buildTranscriptionForm(request)),
        context.signal,
      );
    },

    async translations(request, context) {
      return readTranscriptionResult(
        context.provider,
        await send(deployment(request.model, 'audio/translations'), context, buildTranscriptionForm(request)),
        context.signal,
      );
    },

    async speech(request, context) {
      const response = await postJson(request.model, 'audio/speech', request, context);
      return {
        contentType: String(response.headers['content-type'] ?? 'application/octet-stream'),
        body: pipeUpstreamBytes(context.provider, response.body, context.signal),
      };
    },

    async imageGenerations(request, context) {
      const response = await postJson(request.model, 'images/generations', request, context);
      return readUpstreamJson(context.provider, response, context.signal, imagesResponseSchema);
    },

    async imageEdits(request, context) {
      const response = await send(deployment(request.model, 'images/edits'), context, buildImageForm(request));
      if (request.stream !== true)
        return readUpstreamJson(context.provider, response, context.signal, imagesResponseSchema);
      return readUpstreamEvents(
        context.provider,
        response,
        context.signal,
        secrets,
        imageEditEventSchema,
        'an image edit event',
        (event) => event.event !== 'ping',
      );
    },

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
