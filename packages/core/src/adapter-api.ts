/**
 * `@switchyard/core/adapter`: everything an adapter author needs, and only that. The `ProviderAdapter` contract and
 * its context, the OpenAI wire format as zod schemas (unknown fields kept), the gateway's errors in OpenAI's shape,
 * and the upstream HTTP helpers on undici (requests with the call's timeouts, body limits and trace headers; JSON and
 * SSE readers that take a schema; multipart bodies). What `ADAPTER_SPEC_VERSION` names is stable within a major
 * version; anything not exported here or from `@switchyard/core` is internal and may change in any release.
 * @see https://github.com/switchyard/switchyard/blob/main/docs/writing-an-adapter.md
 */

export type { AdapterCallContext } from './adapter/adapter-context.js';
export { ADAPTER_SPEC_VERSION } from './adapter/adapter-spec-version.js';
export type { GatewayWarning } from './adapter/gateway-warning.js';
export { MODEL_CAPABILITIES, type ModelCapability } from './adapter/model-capability.js';
export type { NativeMessagesResult, NativeSSEEvent } from './adapter/native-messages.js';
export type { NativeResponsesResult } from './adapter/native-responses.js';
export {
  BATCH_STATUSES,
  type NativeBatchApi,
  type UpstreamBatch,
  upstreamBatchSchema,
  upstreamFileSchema,
} from './adapter/native-batch-api.js';
export { UpstreamFormData } from './utils/upstream-request.js';
export {
  type AdapterOperation,
  adapterServes,
  type ProviderAdapter,
  type UpstreamModel,
} from './adapter/provider-adapter.js';
export type { ProviderFactory } from './adapter/provider-factory.js';
export {
  checkRequestParameters,
  droppedParameters,
  LEGACY_FUNCTION_CALLING_REFUSED,
  nonNeutral,
  type ParameterRules,
  type RefusedParameter,
  reportDroppedParameters,
} from './adapter/report-dropped-parameters.js';
export { reportCapabilities, reportedCan, type ReportedCapabilities } from './adapter/reported-capabilities.js';
export {
  authenticationError,
  invalidRequestError,
  modelNotFoundError,
  unsupportedOperationError,
  upstreamCredentialsError,
  upstreamInvalidResponseError,
  upstreamTimeoutError,
  upstreamUnreachableError,
} from './errors/common-errors.js';
export { type ErrorBody, errorBodySchema } from './errors/error-body.js';
export { formatParamPath, fromZodError } from './errors/from-zod-error.js';
export {
  type ErrorCode,
  GATEWAY_ERROR_CODES,
  type GatewayErrorCode,
  isGatewayErrorCode,
  type UpstreamErrorCode,
  upstreamErrorCode,
} from './errors/gateway-error-codes.js';
export {
  GatewayError,
  type GatewayErrorOptions,
  type GatewayErrorRetry,
  type UpstreamAnswer,
} from './errors/gateway-error.js';
export { redactGatewayError } from './errors/redact-gateway-error.js';
export { redactSecrets, secretFragmentLength } from './errors/redact-secrets.js';
export { upstreamErrorMeaning } from './errors/upstream-error-meaning.js';
export {
  type ChatCompletionChunk,
  chatCompletionChunkSchema,
  type ChatCompletionToolCallDelta,
  chatCompletionToolCallDeltaSchema,
} from './schemas/chat-completion-chunk.js';
export {
  type ContentPart,
  contentPartSchema,
  fileContentPartSchema,
  type ImageContentPart,
  imageContentPartSchema,
  inputAudioContentPartSchema,
  refusalContentPartSchema,
  type TextContentPart,
  textContentPartSchema,
} from './schemas/chat-completion-content-part.js';
export { type ChatCompletionMessage, chatCompletionMessageSchema } from './schemas/chat-completion-message.js';
export {
  type ChatCompletionRequest,
  chatCompletionRequestSchema,
  MAX_CHAT_MESSAGES,
} from './schemas/chat-completion-request.js';
export {
  type ChatCompletionMessageToolCall,
  chatCompletionMessageToolCallSchema,
  type ChatCompletionTool,
  type ChatCompletionToolChoice,
  chatCompletionToolChoiceSchema,
  chatCompletionToolSchema,
} from './schemas/chat-completion-tool.js';
export {
  type ChatCompletion,
  type ChatCompletionChoice,
  chatCompletionSchema,
  type FinishReason,
  finishReasonSchema,
} from './schemas/chat-completion.js';
export { checkChatCompletionChunk, isPlainChatCompletionChunk } from './schemas/check-chat-completion-chunk.js';
export { isPlainChatCompletion, isPlainEmbeddingResponse, isPlainUsage } from './schemas/check-plain-answers.js';
export { isPlainChatCompletionRequest } from './schemas/check-plain-chat-request.js';
export { type CompletionUsage, completionUsageSchema, tokenCountSchema } from './schemas/completion-usage.js';
export { type EmbeddingRequest, embeddingRequestSchema } from './schemas/embedding-request.js';
export { type EmbeddingResponse, embeddingResponseSchema } from './schemas/embedding-response.js';
export { type ImageGenerationRequest, imageGenerationRequestSchema } from './schemas/image-generation-request.js';
export { type ImagesResponse, imagesResponseSchema } from './schemas/images-response.js';
export { checkModelId, MAX_MODEL_ID_LENGTH, MODEL_ID_PATTERN, modelIdSchema } from './schemas/model-id.js';
export { type Model, type ModelList, modelListSchema, modelSchema } from './schemas/model.js';
export {
  DEFAULT_MODERATION_MODEL,
  type ModerationInputPart,
  moderationInputPartSchema,
  type ModerationRequest,
  moderationRequestSchema,
} from './schemas/moderation-request.js';
export { type ModerationResponse, moderationResponseSchema } from './schemas/moderation-response.js';
export {
  ANTHROPIC_REASONING_FORMAT,
  GOOGLE_REASONING_FORMAT,
  type ReasoningDetail,
  reasoningDetailSchema,
} from './schemas/reasoning-detail.js';
export { type ReasoningEffort, reasoningEffortSchema } from './schemas/reasoning-effort.js';
export { type RerankRequest, rerankRequestSchema } from './schemas/rerank-request.js';
export { type RerankResponse, rerankResponseSchema } from './schemas/rerank-response.js';
export { type SpeechRequest, speechRequestSchema, type SpeechResult } from './schemas/speech-request.js';
export {
  transcriptionFieldsSchema,
  type TranscriptionRequest,
  type TranscriptionResponseFormat,
  transcriptionResponseFormatSchema,
  type UploadedFile,
} from './schemas/transcription-request.js';
export type { TranscriptionResult } from './schemas/transcription-response.js';
export { translationFieldsSchema, type TranslationRequest } from './schemas/translation-request.js';
export {
  type MessageAnnotation,
  messageAnnotationSchema,
  type UrlCitationAnnotation,
  urlCitationAnnotationSchema,
} from './schemas/url-citation.js';
export { type WebSearchCall, webSearchCallSchema } from './schemas/web-search-call.js';
export { encodeSSEData, SSE_DONE } from './utils/encode-sse.js';
export { fetchUpstreamBody, type UpstreamBody } from './utils/fetch-upstream-body.js';
export { type MultipartFormBody, multipartFormBody, type MultipartPart } from './utils/multipart-form-body.js';
export {
  createUpstreamErrorMapper,
  type ProviderErrorMapper,
  type UpstreamErrorContext,
  type UpstreamErrorHook,
  type UpstreamErrorMapperOptions,
  type UpstreamResponseHeaders,
} from './utils/create-upstream-error-mapper.js';
export { lenientField } from './utils/lenient-field.js';
export { mapOpenAIError, openAIErrorHooks } from './utils/map-openai-error.js';
export {
  type OpenAIErrorBody,
  type OpenAIErrorObject,
  openAIErrorBodySchema,
  openAIErrorObjectSchema,
} from './utils/openai-error-body.js';
export { parseJsonOrUndefined } from './utils/parse-json-or-undefined.js';
export {
  parseSSEBatches,
  type ParseSSEOptions,
  parseSSEStream,
  type ServerSentEvent,
  type SSEBatch,
} from './utils/parse-sse-stream.js';
export { SSEBatchReader } from './utils/sse-batch-reader.js';
export { pipeUpstreamBytes } from './utils/pipe-upstream-bytes.js';
export { rememberJsonText, toJsonBody, toRequestJsonBody, toRequestJsonParts } from './utils/raw-json-text.js';
export { checkUpstreamEvent, readUpstreamEvent } from './utils/read-upstream-event.js';
export { StrayStreamTextError } from './utils/stray-stream-text-error.js';
export { streamUpstreamBody, type UpstreamStreamResponse } from './utils/stream-upstream-body.js';
export {
  DEFAULT_UPSTREAM_BODY_LIMITS,
  type UpstreamBodyLimits,
  type UpstreamCallSettings,
  upstreamResponseTooLargeError,
} from './utils/upstream-body-limits.js';
export { getUpstreamDispatcher, type UpstreamTimeouts } from './utils/upstream-dispatcher.js';
export {
  checkUpstreamShape,
  describeIssue,
  mapTransportError,
  readUpstreamAnswer,
  readUpstreamEmbeddings,
  readUpstreamJson,
  readUpstreamText,
  sendUpstreamRequest,
  upstreamAnswerOf,
  upstreamEmbeddingsOf,
  type UpstreamErrorMapper,
  upstreamFixedAnswerOf,
  type UpstreamRequestOptions,
} from './utils/upstream-request.js';
export {
  MAX_TRANSLATED_PROMPTS,
  LEGACY_DEFAULT_MAX_TOKENS,
  untranslatableParameters,
  translatablePrompts,
  chatRequestOf,
  completionOfChat,
  completionChunksOfChat,
} from './gateway/completion-from-chat.js';
export {
  MAX_COMPLETION_PROMPTS,
  completionPromptSchema,
  textCompletionRequestSchema,
  type TextCompletionRequest,
} from './schemas/text-completion-request.js';
export {
  textCompletionChoiceSchema,
  textCompletionSchema,
  type TextCompletion,
  type TextCompletionResult,
} from './schemas/text-completion.js';
export {
  MAX_EDIT_IMAGES,
  imageEditFieldsSchema,
  type ImageEditRequest,
  imageVariationFieldsSchema,
  type ImageVariationRequest,
} from './schemas/image-edit-request.js';
export {
  imageEditEventSchema,
  type ImageEditEvent,
  type ImageEditResult,
  isImageEditStream,
} from './schemas/image-edit-result.js';
export type {
  RealtimeRequest,
  RealtimeTranslation,
  RealtimeTranslator,
  RealtimeUpstream,
} from './adapter/realtime-upstream.js';
export {
  type RealtimeErrorEvent,
  type RealtimeEvent,
  type RealtimeResponseDone,
  type RealtimeUsage,
  realtimeErrorEvent,
  realtimeEventSchema,
  realtimeResponseDoneSchema,
  realtimeUsageSchema,
} from './schemas/realtime-event.js';
