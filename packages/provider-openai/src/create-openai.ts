import {
  ADAPTER_SPEC_VERSION,
  type ChatCompletion,
  type EmbeddingResponse,
  type ProviderAdapter,
  textCompletionSchema,
  chatCompletionSchema,
  embeddingResponseSchema,
  isPlainChatCompletion,
  isPlainEmbeddingResponse,
  readUpstreamJson,
  streamUpstreamBody,
  upstreamAnswerOf,
  upstreamFixedAnswerOf,
  upstreamEmbeddingsOf,
  upstreamInvalidResponseError,
  mapOpenAIError,
} from '@switchyard/core';
import { OPENAI_BATCH_ENDPOINTS, openAIBatchApi } from './openai-batch-api.js';
import { listedCapabilities } from './openrouter-capabilities.js';
import { moderationAnswerSchema, openaiModelListSchema } from './openai-api.js';
import { buildImageForm } from './build-image-form.js';
import { readUpstreamEvents } from './read-upstream-events.js';
import { openAIModerationDialect } from './moderation-dialect.js';
import type { OpenAIOptions } from './openai-options.js';
import { openAIChunkStream } from './openai-chunk-stream.js';
import { passResponsesEvents } from './pass-responses-events.js';
import { openAIRealtimeUpstream } from './openai-realtime-upstream.js';
import { openAIMediaOperations } from './openai-media-operations.js';
import { nativeResponsesOperation } from './openai-native-responses.js';
import { openAITransport } from './openai-transport.js';

export type { OpenAIOptions } from './openai-options.js';

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
  const transport = openAITransport(options);
  const { baseURL, baseHeaders, secrets, upstreamCall, send, postJson, postJsonForBody, jsonBody } = transport;

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

    ...openAIMediaOperations(transport),

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
  if (options.responses === 'native') adapter.openaiResponses = nativeResponsesOperation(transport);
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
