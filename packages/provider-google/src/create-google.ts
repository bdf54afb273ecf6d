import { geminiLiveURL } from './gemini-live-url.js';
import { GeminiLiveTranslator } from './gemini-live-translator.js';
import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  checkRequestParameters,
  type GatewayWarning,
  type ProviderAdapter,
  parseSSEStream,
  readUpstreamJson,
  sendUpstreamRequest,
  type UpstreamTimeouts,
  reportCapabilities,
} from '@switchyard/core';
import { checkGeminiParameters } from './check-gemini-parameters.js';
import { checkImagenParameters } from './check-imagen-parameters.js';
import {
  GEMINI_EMBEDDING_PARAMETERS,
  convertGeminiEmbeddings,
  convertToGeminiBatchEmbed,
} from './convert-gemini-embeddings.js';
import { convertImagenResponse, convertToImagenRequest } from './imagen.js';
import { convertGeminiResponse } from './convert-gemini-response.js';
import { convertGeminiStream } from './convert-gemini-stream.js';
import { convertToGeminiRequest } from './convert-to-gemini-request.js';
import {
  geminiBatchEmbedResponseSchema,
  geminiGenerateContentResponseSchema,
  geminiModelListSchema,
  imagenPredictResponseSchema,
} from './gemini-api.js';
import { mapGeminiError } from './map-gemini-error.js';

/** Options of {@link createGoogle}. */
export interface GoogleOptions {
  /** Gemini API key, sent as `x-goog-api-key` (never in the URL). */
  apiKey: string;
  /** Default `https://generativelanguage.googleapis.com/v1beta`. */
  baseURL?: string;
  headers?: Record<string, string>;
  timeouts?: UpstreamTimeouts;
}

/**
 * An adapter for the Gemini API: OpenAI-format chat completions (`generateContent`, `streamGenerateContent?alt=sse`),
 * embeddings (`batchEmbedContents`), image generation with Imagen (`models/{model}:predict`, e.g.
 * `imagen-4.0-generate-001`; see convertToImagenRequest) and the model list. Audio is absent (400
 * `unsupported_operation`). Every answer and stream event is read through the zod schemas of `gemini-api.ts` (the
 * fields read, unknown ones kept): one that is not JSON or not of that shape throws 502 `upstream_invalid_response`
 * naming the provider; upstream errors are mapped by `mapGeminiError`.
 * Realtime sessions (`/v1/realtime`) go to Gemini Live (`BidiGenerateContent` over WebSocket, `x-goog-api-key`), translated
 * from and to OpenAI Realtime events by {@link GeminiLiveTranslator}.
 * @see https://ai.google.dev/api
 * @see https://ai.google.dev/gemini-api/docs/imagen
 */
export function createGoogle(options: GoogleOptions): ProviderAdapter {
  const baseURL = (options.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta').replace(/\/+$/, '');
  const secrets = [options.apiKey];
  const headers = { ...options.headers, 'x-goog-api-key': options.apiKey };
  const modelPath = (model: string) => `models/${encodeURIComponent(model.replace(/^models\//, ''))}`;
  const send = (path: string, context: AdapterCallContext, body?: unknown) =>
    sendUpstreamRequest({
      provider: context.provider,
      url: `${baseURL}/${path}`,
      method: body === undefined ? 'GET' : 'POST',
      headers:
        body === undefined
          ? { ...context.headers, ...headers }
          : { ...context.headers, ...headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: context.signal,
      upstream: context.upstream,
      timeouts: options.timeouts,
      mapError: (status, text, responseHeaders) =>
        mapGeminiError(context.provider, status, text, responseHeaders, secrets),
    });

  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'google',
    webSearch: true,
    async chatCompletions(request, context) {
      checkGeminiParameters(request, context);
      const warnings: GatewayWarning[] = [];
      const body = convertToGeminiRequest(request, warnings);
      for (const warning of warnings) context.warn(warning);
      if (request.stream) {
        const response = await send(`${modelPath(request.model)}:streamGenerateContent?alt=sse`, context, body);
        return convertGeminiStream(
          parseSSEStream(response.body),
          context.provider,
          request.model,
          context.signal,
          secrets,
        );
      }
      const response = await send(`${modelPath(request.model)}:generateContent`, context, body);
      return convertGeminiResponse(
        await readUpstreamJson(context.provider, response, context.signal, geminiGenerateContentResponseSchema),
        request.model,
      );
    },
    async embeddings(request, context) {
      const model = request.model.replace(/^models\//, '');
      for (const warning of checkRequestParameters(request, GEMINI_EMBEDDING_PARAMETERS)) context.warn(warning);
      const response = await send(
        `${modelPath(model)}:batchEmbedContents`,
        context,
        convertToGeminiBatchEmbed(request, model),
      );
      return convertGeminiEmbeddings(
        await readUpstreamJson(context.provider, response, context.signal, geminiBatchEmbedResponseSchema),
        request.model,
      );
    },
    async imageGenerations(request, context) {
      checkImagenParameters(request, context);
      const response = await send(`${modelPath(request.model)}:predict`, context, convertToImagenRequest(request));
      return convertImagenResponse(
        await readUpstreamJson(context.provider, response, context.signal, imagenPredictResponseSchema),
      );
    },
    realtime(request, context) {
      return {
        url: geminiLiveURL(baseURL),
        headers: { ...context.headers, ...headers },
        secrets,
        translator: new GeminiLiveTranslator(request.model.replace(/^models\//, '')),
      };
    },

    async listModels(context) {
      const response = await send('models?pageSize=1000', context);
      const list = await readUpstreamJson(context.provider, response, context.signal, geminiModelListSchema);
      // The list says whether a model thinks (`thinking`, https://ai.google.dev/api/models#Model); nothing else we route on.
      return (list.models ?? []).map((m) => {
        const capabilities = reportCapabilities({
          reasoning: typeof m.thinking === 'boolean' ? m.thinking : undefined,
        });
        return { id: m.name.replace(/^models\//, ''), ...(capabilities && { capabilities }) };
      });
    },
  };
}
