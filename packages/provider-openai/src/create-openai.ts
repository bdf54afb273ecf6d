import {
  type GatewayError,
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  type AdapterOperation,
  type ChatCompletion,
  type EmbeddingResponse,
  type ImagesResponse,
  type ProviderAdapter,
  imageEditEventSchema,
  textCompletionSchema,
  type UpstreamTimeouts,
  chatCompletionSchema,
  parseSSEStream,
  embeddingResponseSchema,
  imagesResponseSchema,
  isPlainChatCompletion,
  isPlainEmbeddingResponse,
  fetchUpstreamBody,
  readUpstreamJson,
  sendUpstreamRequest,
  streamUpstreamBody,
  upstreamAnswerOf,
  upstreamFixedAnswerOf,
  upstreamEmbeddingsOf,
  type UpstreamFormData,
  type UpstreamRequestOptions,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { OPENAI_BATCH_ENDPOINTS, openAIBatchApi } from './openai-batch-api.js';
import { listedCapabilities } from './openrouter-capabilities.js';
import { moderationAnswerSchema, openaiModelListSchema, responsesAnswerSchema } from './openai-api.js';
import { buildTranscriptionForm } from './build-transcription-form.js';
import { buildImageForm } from './build-image-form.js';
import { readUpstreamEvents } from './read-upstream-events.js';
import { readTranscriptionResult } from './read-transcription-result.js';
import type { ChatQuirks } from './presets/openai-compatible-preset.js';
import { mapOpenAIError } from './map-openai-error.js';
import { type ModerationDialect, openAIModerationDialect } from './moderation-dialect.js';
import { mapResponsesStreamError } from './map-responses-stream-error.js';
import { openAIChunkStream } from './openai-chunk-stream.js';
import { passResponsesEvents } from './pass-responses-events.js';
import { pipeUpstreamBytes } from './pipe-upstream-bytes.js';
import { openAIRealtimeUpstream } from './openai-realtime-upstream.js';
import { responsesUsageToChat } from './responses-usage-to-chat.js';

/** The operations an `operations` list may leave out (`openaiResponses` comes with `responses: 'native'` only). */
const OPTIONAL_OPERATIONS = [
  'chatCompletions',
  'completions',
  'embeddings',
  'transcriptions',
  'translations',
  'speech',
  'imageGenerations',
  'imageEdits',
  'imageVariations',
  'moderations',
  'realtime',
  'listModels',
] as const;

/** Options of {@link createOpenAI}. */
export interface OpenAIOptions {
  /** The upstream API key, sent as `Authorization: Bearer`. Optional for local servers (Ollama, vLLM, LM Studio). */
  apiKey?: string;
  /** Base URL including the version path. Default `https://api.openai.com/v1`; e.g. `https://api.groq.com/openai/v1`. */
  baseURL?: string;
  /** Extra headers sent on every request (e.g. `HTTP-Referer` for OpenRouter). */
  headers?: Record<string, string>;
  /** `OpenAI-Organization` header. */
  organization?: string;
  /** `OpenAI-Project` header. */
  project?: string;
  /**
   * Per-call upstream limits, ms: `headersMs` (request sent to response headers; over it: 504) and `bodyIdleMs`
   * (longest gap between two body chunks; over it: 504). Defaults: the shared pool's (600,000 and 300,000 ms). The
   * connect timeout is process-wide (`setUpstreamConnectTimeout` in core, `routing.timeouts.connect_ms` in config).
   */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
  /** The adapter's kind as reported in `adapter` (metrics, conformance matrix). Default `openai`; presets use their name. */
  adapter?: string;
  /** The operations to offer (default: all of them); the others are absent, so the gateway answers 400 `unsupported_operation`. */
  operations?: readonly AdapterOperation[];
  /** A host's request/answer fix-ups (see the presets, e.g. Mistral's tool-call ids). */
  quirks?: ChatQuirks;
  /** How the host speaks `/moderations` when not as OpenAI does (the Mistral preset's `mistralModerationDialect`). */
  moderation?: ModerationDialect;
  /**
   * How `/v1/responses` reaches this upstream: `translate` (default) runs it as a chat completion; `native` passes the
   * Responses request to the upstream's own `POST /responses` (the adapter then has `openaiResponses`). Only for
   * upstreams that serve the Responses API (OpenAI itself).
   */
  responses?: 'native' | 'translate';
  /**
   * Offer OpenAI's own Batch API (`batches`), so that `/v1/batches` of this provider's models run upstream at OpenAI's
   * batch price. Default true for the `openai` adapter kind; never for the compatible hosts of the presets.
   */
  batches?: boolean;
  /** Send `OpenAI-Beta: realtime=v1` on Realtime sessions (upstreams still on the beta Realtime interface). Default false. */
  realtimeBeta?: boolean;
}

/**
 * An adapter for OpenAI's API and every OpenAI-compatible server (Groq, Mistral, DeepSeek, Together, Fireworks, xAI,
 * OpenRouter, vLLM, Ollama's `/v1`, LM Studio), chosen by `baseURL`:
 * ```ts
 * const groq = createOpenAI({ apiKey: process.env.GROQ_API_KEY, baseURL: 'https://api.groq.com/openai/v1' });
 * ```
 * Operations, each `POST <baseURL><path>` with `Authorization: Bearer <apiKey>` and the gateway's `x-request-id`:
 * - `chatCompletions` -> `/chat/completions`: the request is forwarded as it is (unknown fields included); with
 *   `stream: true` the SSE chunks are yielded one by one as they arrive (see {@link openAIChunkStream}; the gateway reads plain text deltas
 *   without parsing them when the host needs no chunk fixes).
 * - `completions` -> `/completions` (legacy): the request forwarded as it is; the completion, or with `stream: true`
 *   its `text_completion` chunks (checked with core's `textCompletionSchema`) as they arrive.
 * - `embeddings` -> `/embeddings`, `imageGenerations` -> `/images/generations`: JSON in, JSON out.
 * - `imageEdits` -> `/images/edits`, `imageVariations` -> `/images/variations`: the images (and mask) and every field
 *   re-sent as multipart (see {@link buildImageForm}); an edit with `stream: true` yields the upstream's
 *   `image_edit.*` events.
 * - `transcriptions` -> `/audio/transcriptions`, `translations` -> `/audio/translations`: the file and every field
 *   re-sent as multipart; a JSON answer (`json`, `verbose_json`) is `{kind:'json'}`, any other (`text`, `srt`, `vtt`)
 *   `{kind:'text'}` with the upstream content type.
 * - `speech` -> `/audio/speech`: the audio bytes piped with the upstream content type, never buffered.
 * - `moderations` -> `/moderations`: JSON in, JSON out (checked against OpenAI's moderation schema), or through the
 *   host's `moderation` dialect.
 * - `realtime` -> a WebSocket to `<baseURL>/realtime?model=<model>` (see {@link openAIRealtimeUpstream}); events pass unchanged.
 * - `listModels` -> `GET /models`: `[{id, created}]`, with the capabilities OpenRouter-style lists report
 *   ({@link listedCapabilities}).
 * - `batches` (the `openai` kind only) -> `/files` and `/batches`: OpenAI's Batch API (see {@link openAIBatchApi}).
 * - `openaiResponses` (only with `responses: 'native'`) -> `/responses`: the Responses request as it is; the `response`
 *   object or its events (see {@link passResponsesEvents}) back unchanged, with the usage for metering.
 *
 * Throws GatewayError: the upstream's status and error body (see {@link mapOpenAIError}: 529 becomes 503,
 * `retry-after` kept, the key redacted; 401/403 become 502 `upstream_auth_failed`); 502 when the upstream is
 * unreachable, resets, sends a body that is not JSON or not of the documented shape (checked with core's zod schemas,
 * unknown fields kept), a broken stream, or more bytes than the provider's body limits; 504 on timeouts; the abort reason when `context.signal` aborts (the upstream request is closed at once).
 * @see https://platform.openai.com/docs/api-reference
 */
export function createOpenAI(options: OpenAIOptions = {}): ProviderAdapter {
  const baseURL = (options.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const secrets = [options.apiKey];
  const baseHeaders: Record<string, string> = { ...options.headers };
  if (options.apiKey) baseHeaders.authorization = `Bearer ${options.apiKey}`;
  if (options.organization) baseHeaders['openai-organization'] = options.organization;
  if (options.project) baseHeaders['openai-project'] = options.project;

  /** What differs between the calls of one adapter: body, extra headers, method. */
  type UpstreamInit = {
    body?: string | Uint8Array | readonly Uint8Array[] | UpstreamFormData;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
  };
  const upstreamCall = (path: string, context: AdapterCallContext, init: UpstreamInit): UpstreamRequestOptions => ({
    provider: context.provider,
    url: `${baseURL}${path}`,
    method: init.method,
    headers: { ...context.headers, ...baseHeaders, 'x-request-id': context.requestId, ...init.headers },
    body: init.body,
    signal: context.signal,
    upstream: context.upstream,
    timeouts: options.timeouts,
    mapError: (status, text, headers) => mapOpenAIError(context.provider, status, text, headers, secrets),
  });
  const send = (path: string, context: AdapterCallContext, init: UpstreamInit) =>
    sendUpstreamRequest(upstreamCall(path, context, init));
  const jsonBody = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const postJson = (path: string, body: unknown, context: AdapterCallContext) => send(path, context, jsonBody(body));
  /** POSTs JSON and reads the whole answer (no response stream): for answers that are never streamed. */
  const postJsonForBody = async (path: string, body: unknown, context: AdapterCallContext) =>
    (await fetchUpstreamBody(upstreamCall(path, context, jsonBody(body)))).bytes;

  const quirks = options.quirks ?? {};
  const adapter: ProviderAdapter = {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: options.adapter ?? 'openai',

    async chatCompletions(original, context) {
      const request = quirks.prepareRequest ? quirks.prepareRequest(original, context) : original;
      // Taken as it came (its bytes forwarded) unless a preset fixes it; checked after the fixes (Mistral omits tool call types, for one).
      const { fixCompletion } = quirks;
      if (!request.stream) {
        const bytes = await postJsonForBody('/chat/completions', request, context);
        if (fixCompletion)
          return upstreamFixedAnswerOf<ChatCompletion>(context.provider, bytes, chatCompletionSchema, fixCompletion);
        return upstreamAnswerOf(context.provider, bytes, chatCompletionSchema, isPlainChatCompletion);
      }
      // Read as undici hands the reads over (no Node Readable in between): see streamUpstreamBody.
      const response = await streamUpstreamBody(upstreamCall('/chat/completions', context, jsonBody(request)));
      const contentType = String(response.headers['content-type'] ?? '');
      if (!contentType.startsWith('text/event-stream')) {
        response.body.destroy();
        throw upstreamInvalidResponseError(
          context.provider,
          `a stream was asked for but it sent '${contentType || 'no content type'}'.`,
        );
      }
      return openAIChunkStream(context.provider, response.body, context.signal, secrets, quirks.fixChunk);
    },

    async completions(request, context) {
      if (!request.stream) {
        const bytes = await postJsonForBody('/completions', request, context);
        return upstreamAnswerOf(context.provider, bytes, textCompletionSchema, () => false);
      }
      const response = await postJson('/completions', request, context);
      return readUpstreamEvents(
        context.provider,
        response,
        context.signal,
        secrets,
        textCompletionSchema,
        'a text_completion chunk',
      );
    },

    async embeddings(request, context) {
      const bytes = await postJsonForBody('/embeddings', request, context);
      return upstreamEmbeddingsOf<EmbeddingResponse>(
        context.provider,
        bytes,
        embeddingResponseSchema,
        isPlainEmbeddingResponse,
      );
    },

    async transcriptions(request, context) {
      return readTranscriptionResult(
        context.provider,
        await send('/audio/transcriptions', context, buildTranscriptionForm(request)),
        context.signal,
      );
    },

    async translations(request, context) {
      return readTranscriptionResult(
        context.provider,
        await send('/audio/translations', context, buildTranscriptionForm(request)),
        context.signal,
      );
    },

    async speech(request, context) {
      const response = await postJson('/audio/speech', request, context);
      return {
        contentType: String(response.headers['content-type'] ?? 'application/octet-stream'),
        body: pipeUpstreamBytes(context.provider, response.body, context.signal),
      };
    },

    async imageGenerations(request, context) {
      const response = await postJson('/images/generations', request, context);
      return readUpstreamJson<ImagesResponse>(context.provider, response, context.signal, imagesResponseSchema);
    },

    async imageEdits(request, context) {
      const response = await send('/images/edits', context, buildImageForm(request));
      if (request.stream !== true)
        return readUpstreamJson<ImagesResponse>(context.provider, response, context.signal, imagesResponseSchema);
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

    async imageVariations(request, context) {
      const response = await send('/images/variations', context, buildImageForm(request));
      return readUpstreamJson<ImagesResponse>(context.provider, response, context.signal, imagesResponseSchema);
    },

    async moderations(request, context) {
      const dialect = options.moderation ?? openAIModerationDialect;
      const response = await postJson('/moderations', dialect.prepareRequest(request, context), context);
      return dialect.readAnswer(
        context.provider,
        await readUpstreamJson(context.provider, response, context.signal, moderationAnswerSchema),
      );
    },

    async listModels(context) {
      const response = await send('/models', context, { method: 'GET' });
      const list = await readUpstreamJson(context.provider, response, context.signal, openaiModelListSchema);
      return (list.data ?? []).map((m) => {
        const capabilities = listedCapabilities(m);
        return { id: m.id, created: m.created, ...(capabilities && { capabilities }) };
      });
    },
  };
  if (options.responses === 'native') {
    adapter.openaiResponses = async (request, context) => {
      const response = await postJson('/responses', request, context);
      if (request.stream === true) {
        const contentType = String(response.headers['content-type'] ?? '');
        if (!contentType.startsWith('text/event-stream')) {
          await response.body.dump().catch(() => {});
          throw upstreamInvalidResponseError(
            context.provider,
            `a stream was asked for but it sent '${contentType || 'no content type'}'.`,
          );
        }
        let usage: Record<string, unknown> | undefined;
        let failure: GatewayError | undefined;
        const events = passResponsesEvents(
          parseSSEStream(response.body, { provider: context.provider }),
          (found) => (usage = found),
          (name, data) => (failure ??= mapResponsesStreamError(context.provider, name, data, secrets)),
          context.provider,
        );
        return { events, usage: () => responsesUsageToChat(usage), error: () => failure };
      }
      const json = await readUpstreamJson(context.provider, response, context.signal, responsesAnswerSchema);
      return { json, usage: responsesUsageToChat(json.usage) };
    };
  }
  // OpenAI itself (not the compatible hosts of the presets) runs batches at half price.
  if ((options.adapter ?? 'openai') === 'openai' && options.batches !== false)
    Object.assign(adapter, {
      batches: openAIBatchApi({ call: upstreamCall, endpoints: OPENAI_BATCH_ENDPOINTS }),
    });
  adapter.realtime = (request, context) =>
    openAIRealtimeUpstream(baseURL, request.model, baseHeaders, context, options.realtimeBeta ?? false, secrets);
  if (options.operations) {
    for (const operation of OPTIONAL_OPERATIONS) {
      if (!options.operations.includes(operation)) delete adapter[operation];
    }
  }
  return adapter;
}
