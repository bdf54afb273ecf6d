import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  checkRequestParameters,
  type ProviderAdapter,
  rerankResponseSchema,
  type UpstreamTimeouts,
  parseSSEStream,
  readUpstreamJson,
  sendUpstreamRequest,
  upstreamInvalidResponseError,
  mapOpenAIError,
} from '@switchyard/core';
import { COHERE_EMBEDDING_PARAMETERS, convertCohereEmbed, convertToCohereEmbed } from './cohere-embeddings.js';
import { convertCohereRerank, convertToCohereRerank } from './cohere-rerank.js';
import { cohereChatResponseSchema, cohereEmbedResponseSchema, cohereModelListSchema } from './cohere-api.js';
import { convertCohereChat } from './convert-cohere-chat.js';
import { convertCohereChatStream } from './convert-cohere-chat-stream.js';
import { convertToCohereChat } from './convert-to-cohere-chat.js';

/** Options of {@link createCohere}. */
export interface CohereOptions {
  /** The Cohere API key, sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Default `https://api.cohere.com`. */
  baseURL?: string;
  /** `input_type` for embeddings when the request has none. Default `search_document`. */
  inputType?: string;
  /** Per-call upstream limits, ms (`headersMs`, `bodyIdleMs`). */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
}

/**
 * An adapter for Cohere's v2 API:
 * - `chatCompletions` -> `POST /v2/chat` (see convertToCohereChat; tools, tool results, images, JSON output),
 *   streamed as SSE events turned into OpenAI chunks (convertCohereChatStream);
 * - `embeddings` -> `POST /v2/embed` (convertToCohereEmbed: `input_type` from the request or the configured default,
 *   floats that the gateway encodes as base64 on request);
 * - `rerank` -> `POST /v2/rerank` (convertToCohereRerank; `return_documents` honoured from the request's documents);
 * - `listModels` -> `GET /v1/models`.
 * Errors (`{"message": ...}`) keep their status in OpenAI's shape with the key redacted (core's
 * `mapOpenAIError`); transport failures are 502/504; `context.signal` aborts the upstream request.
 * @see https://docs.cohere.com/reference/chat
 * @see https://docs.cohere.com/reference/embed
 */
export function createCohere(options: CohereOptions): ProviderAdapter {
  const baseURL = (options.baseURL ?? 'https://api.cohere.com').replace(/\/+$/, '');
  const secrets = [options.apiKey];
  const send = (path: string, context: AdapterCallContext, body?: unknown) =>
    sendUpstreamRequest({
      provider: context.provider,
      url: `${baseURL}${path}`,
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        ...context.headers,
        authorization: `Bearer ${options.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: context.signal,
      timeouts: options.timeouts,
      upstream: context.upstream,
      mapError: (status, text, headers) => mapOpenAIError(context.provider, status, text, headers, secrets),
    });
  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'cohere',
    async chatCompletions(request, context) {
      const response = await send('/v2/chat', context, convertToCohereChat(request, context.warn));
      if (request.stream) {
        const contentType = String(response.headers['content-type'] ?? '');
        if (!contentType.startsWith('text/event-stream')) {
          await response.body.dump().catch(() => {});
          throw upstreamInvalidResponseError(
            context.provider,
            `a stream was asked for but it sent '${contentType || 'no content type'}'.`,
          );
        }
        const body = response.body;
        return (async function* () {
          let finished = false;
          try {
            yield* convertCohereChatStream(parseSSEStream(body), context.provider, request.model, context.signal);
            finished = true;
          } finally {
            if (!finished) body.destroy();
          }
        })();
      }
      return convertCohereChat(
        context.provider,
        await readUpstreamJson(context.provider, response, context.signal, cohereChatResponseSchema),
        request.model,
      );
    },
    async embeddings(request, context) {
      for (const warning of checkRequestParameters(request, COHERE_EMBEDDING_PARAMETERS)) context.warn(warning);
      const response = await send(
        '/v2/embed',
        context,
        convertToCohereEmbed(request, options.inputType ?? 'search_document'),
      );
      return convertCohereEmbed(
        await readUpstreamJson(context.provider, response, context.signal, cohereEmbedResponseSchema),
        request.model,
      );
    },
    async rerank(request, context) {
      const response = await send('/v2/rerank', context, convertToCohereRerank(request));
      const answer = await readUpstreamJson(context.provider, response, context.signal, rerankResponseSchema);
      return convertCohereRerank(answer, request, request.model);
    },
    async listModels(context) {
      const response = await send('/v1/models?page_size=1000', context);
      const list = await readUpstreamJson(context.provider, response, context.signal, cohereModelListSchema);
      return (list.models ?? []).map((m) => ({ id: m.name }));
    },
  };
}
