import type { ReportedCapabilities } from './reported-capabilities.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import type { ChatCompletionRequest } from '../schemas/chat-completion-request.js';
import type { ChatCompletion } from '../schemas/chat-completion.js';
import type { EmbeddingRequest } from '../schemas/embedding-request.js';
import type { EmbeddingResponse } from '../schemas/embedding-response.js';
import type { ImageGenerationRequest } from '../schemas/image-generation-request.js';
import type { ImagesResponse } from '../schemas/images-response.js';
import type { RerankRequest } from '../schemas/rerank-request.js';
import type { RerankResponse } from '../schemas/rerank-response.js';
import type { SpeechRequest, SpeechResult } from '../schemas/speech-request.js';
import type { TranscriptionRequest } from '../schemas/transcription-request.js';
import type { TranscriptionResult } from '../schemas/transcription-response.js';
import type { TranslationRequest } from '../schemas/translation-request.js';
import type { ModerationRequest } from '../schemas/moderation-request.js';
import type { ModerationResponse } from '../schemas/moderation-response.js';
import type { TextCompletionRequest } from '../schemas/text-completion-request.js';
import type { TextCompletion } from '../schemas/text-completion.js';
import type { ImageEditRequest, ImageVariationRequest } from '../schemas/image-edit-request.js';
import type { ImageEditResult } from '../schemas/image-edit-result.js';
import type { AdapterCallContext } from './adapter-context.js';
import type { NativeMessagesResult } from './native-messages.js';
import type { NativeResponsesResult } from './native-responses.js';
import type { ADAPTER_SPEC_VERSION } from './adapter-spec-version.js';
import type { NativeBatchApi } from './native-batch-api.js';
import type { RealtimeRequest, RealtimeUpstream } from './realtime-upstream.js';

/** A model as an upstream lists it: its native id and, where known, its creation time (unix seconds). */
export interface UpstreamModel {
  id: string;
  created?: number;
  /** What the provider's list says the model can do, where it says so (see {@link ReportedCapabilities}). */
  capabilities?: ReportedCapabilities;
}

/**
 * The contract between the gateway and one upstream provider. Every method is optional: a missing method
 * means the provider does not offer that operation, and the gateway answers 400 `unsupported_operation`.
 *
 * Requests arrive validated, in OpenAI wire format, with `model` already replaced by the upstream's model id.
 * Answers are in OpenAI wire format. Failures before any data is returned are thrown as `GatewayError`
 * (status and OpenAI-shaped body); a stream that fails after its first chunk throws from its iterator,
 * and the gateway turns that into one SSE error event.
 * Every method must pass `context.signal` to its upstream requests so that a client disconnect aborts them.
 */
export interface ProviderAdapter {
  /** The contract version this adapter implements: {@link ADAPTER_SPEC_VERSION}. */
  readonly specVersion: typeof ADAPTER_SPEC_VERSION;
  /** The adapter's kind, e.g. `openai`, `anthropic`, or a third-party package name. */
  readonly adapter: string;
  /**
   * True when `chatCompletions` maps chat's `web_search_options` to the upstream's own web search tool (Anthropic's
   * `web_search` server tool) and reports the searches it ran as `message.web_search_calls` (and stream deltas of the
   * same name, `[{id, query}]`). The `/v1/responses` front door then maps hosted `web_search` tools instead of
   * dropping them. Default false.
   * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-web_search_options
   */
  readonly webSearch?: boolean;
  /**
   * `POST /v1/chat/completions`. Resolves once the upstream has accepted the request: with a completion when
   * `request.stream` is not true, else with an async iterable of `chat.completion.chunk`s (yielded as they arrive).
   */
  chatCompletions?(
    request: ChatCompletionRequest,
    context: AdapterCallContext,
  ): Promise<ChatCompletion | AsyncIterable<ChatCompletionChunk>>;
  /**
   * `POST /v1/completions` (legacy text completions) for upstreams that serve the endpoint themselves (OpenAI, Azure,
   * vLLM-like servers): `request` is the client's body (`model` the upstream id, unknown fields kept), sent as it is.
   * Resolves with the completion, or with its `text_completion` chunks when `request.stream` is true. Adapters without
   * it but with {@link chatCompletions} get legacy completions translated through chat by the gateway (parameters chat
   * cannot honour are refused with a 400 naming them). Errors as for `chatCompletions`.
   * @see https://platform.openai.com/docs/api-reference/completions/create
   */
  completions?(
    request: TextCompletionRequest,
    context: AdapterCallContext,
  ): Promise<TextCompletion | AsyncIterable<TextCompletion>>;
  /** `POST /v1/embeddings`. May return float arrays or base64 strings; the gateway converts to what was asked. */
  embeddings?(request: EmbeddingRequest, context: AdapterCallContext): Promise<EmbeddingResponse>;
  /** `POST /v1/audio/transcriptions`: the uploaded file plus form fields. */
  transcriptions?(request: TranscriptionRequest, context: AdapterCallContext): Promise<TranscriptionResult>;
  /**
   * `POST /v1/audio/translations`: the uploaded audio plus form fields; the answer is English text in the shapes of a
   * transcription (JSON for `json`/`verbose_json`, text for `text`/`srt`/`vtt`).
   * @see https://platform.openai.com/docs/api-reference/audio/createTranslation
   */
  translations?(request: TranslationRequest, context: AdapterCallContext): Promise<TranscriptionResult>;
  /** `POST /v1/audio/speech`: audio bytes, streamed. */
  speech?(request: SpeechRequest, context: AdapterCallContext): Promise<SpeechResult>;
  /** `POST /v1/images/generations`. */
  imageGenerations?(request: ImageGenerationRequest, context: AdapterCallContext): Promise<ImagesResponse>;
  /**
   * `POST /v1/images/edits`: the uploaded images (and `mask`) plus form fields; resolves with the images answer, or with
   * its events (`image_edit.partial_image`, `image_edit.completed`) when `request.stream` is true and the upstream
   * streams them.
   * @see https://platform.openai.com/docs/api-reference/images/createEdit
   */
  imageEdits?(request: ImageEditRequest, context: AdapterCallContext): Promise<ImageEditResult>;
  /**
   * `POST /v1/images/variations` (dall-e-2): variations of one uploaded image.
   * @see https://platform.openai.com/docs/api-reference/images/createVariation
   */
  imageVariations?(request: ImageVariationRequest, context: AdapterCallContext): Promise<ImagesResponse>;
  /**
   * `POST /v1/moderations`: classifies `request.input` (text, or text and image parts); answers in OpenAI's shape, one
   * result per input, with `flagged`, `categories` and `category_scores`. An adapter whose upstream has another taxonomy
   * maps it (see the Mistral preset) and may add `usage` (tokens) for metering.
   * @see https://platform.openai.com/docs/api-reference/moderations/create
   */
  moderations?(request: ModerationRequest, context: AdapterCallContext): Promise<ModerationResponse>;
  /**
   * `POST /v1/rerank` (Cohere's shape): `request.documents` ordered by relevance to `request.query`, most relevant
   * first, each result naming the document's index in the request.
   * @see https://docs.cohere.com/reference/rerank
   */
  rerank?(request: RerankRequest, context: AdapterCallContext): Promise<RerankResponse>;
  /**
   * Anthropic Messages pass-through for the `/v1/messages` front door: `request` is Anthropic's own request body
   * (`model` already the upstream id), sent as it is; the answer comes back unchanged (thinking blocks, signatures, cache
   * fields kept). Only adapters whose upstream speaks the Messages API implement it; for the others the front door
   * translates through `chatCompletions`. Errors as for `chatCompletions`.
   * @see https://docs.anthropic.com/en/api/messages
   */
  anthropicMessages?(request: Record<string, unknown>, context: AdapterCallContext): Promise<NativeMessagesResult>;
  /**
   * `POST /v1/messages/count_tokens` for deployments that pass Anthropic's Messages API through: `request` is the
   * count_tokens body (`model` already the upstream id), asked of the upstream's own counter; resolves with its
   * `input_tokens` (tokens). Adapters without it get an estimate from the gateway. Errors as for `chatCompletions`.
   * @see https://docs.anthropic.com/en/api/messages-count-tokens
   */
  anthropicCountTokens?(
    request: Record<string, unknown>,
    context: AdapterCallContext,
  ): Promise<{ input_tokens: number }>;
  /**
   * Which upstream models a pass-through method serves, for adapters whose upstream speaks a front door's protocol for
   * some models only (Claude on Vertex and Bedrock: `anthropicMessages` and `anthropicCountTokens` for Claude ids).
   * Absent: every model the method is called for.
   */
  passesThrough?(
    operation: 'anthropicMessages' | 'anthropicCountTokens' | 'openaiResponses',
    upstreamModel: string,
  ): boolean;
  /**
   * OpenAI Responses pass-through for the `/v1/responses` front door: `request` is a Responses API request body
   * (`model` already the upstream id, `previous_response_id` already expanded into `input` by the front door), sent as
   * it is to the upstream's `POST /responses`; the answer comes back unchanged (the `response` object, or its events
   * with `sequence_number`). Only adapters configured for it implement it (`providers.<name>.responses: native` on the
   * OpenAI adapter); for the others the front door translates through `chatCompletions`. Errors as for
   * `chatCompletions`.
   * @see https://platform.openai.com/docs/api-reference/responses/create
   */
  openaiResponses?(request: Record<string, unknown>, context: AdapterCallContext): Promise<NativeResponsesResult>;
  /**
   * `GET /v1/realtime?model=<id>` (a WebSocket): where the gateway opens the session's upstream socket and how (see
   * {@link RealtimeUpstream}). Adapters whose upstream speaks OpenAI's Realtime events return no translator (the events
   * pass unchanged); others return one. Throws a `GatewayError` (e.g. 400) when the model cannot be served in real time.
   * @see https://platform.openai.com/docs/guides/realtime-websocket
   */
  realtime?(request: RealtimeRequest, context: AdapterCallContext): RealtimeUpstream;
  /** The upstream's own model list (native ids), shown as `<provider>/<id>` in `GET /v1/models`. */
  listModels?(context: AdapterCallContext): Promise<UpstreamModel[]>;
  /**
   * The provider's own Batch API (OpenAI, Azure OpenAI): `/v1/batches` of this provider's models are run there, at its
   * batch price, instead of line by line by the gateway. Absent: the gateway runs them itself.
   */
  readonly batches?: NativeBatchApi;
}

/** The operations of {@link ProviderAdapter}, as method names. */
export type AdapterOperation = Exclude<
  keyof ProviderAdapter,
  'specVersion' | 'adapter' | 'passesThrough' | 'webSearch' | 'batches'
>;

/**
 * True when `adapter` implements `operation` for `upstreamModel`: the method exists (for `completions`: it or
 * `chatCompletions`, through which the gateway translates) and, for a pass-through, the
 * adapter's {@link ProviderAdapter.passesThrough} (when it has one) accepts the model.
 */
export function adapterServes(adapter: ProviderAdapter, operation: AdapterOperation, upstreamModel: string): boolean {
  // Legacy completions are translated through chat for adapters that do not serve them.
  if (operation === 'completions')
    return typeof adapter.completions === 'function' || typeof adapter.chatCompletions === 'function';
  if (typeof adapter[operation] !== 'function') return false;
  if (operation !== 'anthropicMessages' && operation !== 'anthropicCountTokens' && operation !== 'openaiResponses')
    return true;
  return adapter.passesThrough?.(operation, upstreamModel) ?? true;
}
