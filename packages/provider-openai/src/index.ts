export { buildTranscriptionForm } from './build-transcription-form.js';
export { buildImageForm } from './build-image-form.js';
export { readUpstreamEvents } from './read-upstream-events.js';
export { readTranscriptionResult } from './read-transcription-result.js';
export { type OpenAIOptions, createOpenAI } from './create-openai.js';
export {
  openaiModelListSchema,
  openaiTranscriptionJsonSchema,
  responsesAnswerSchema,
  responsesFinalEventSchema,
  responsesUsageSchema,
} from './openai-api.js';
export { parseOpenAIChunkStream } from './parse-openai-chunk-stream.js';
/** Re-exported from core (kept for adapters that import it from here): reads a whole body as text within the provider's limits. */
export { readUpstreamText } from '@switchyard/core';
/**
 * Re-exported from core (kept for adapters that import them from here): OpenAI's error body schemas and error mapper,
 * and `pipeUpstreamBytes` (an upstream body passed through as it arrives).
 */
export {
  mapOpenAIError,
  type OpenAIErrorBody,
  type OpenAIErrorObject,
  openAIErrorBodySchema,
  openAIErrorHooks,
  openAIErrorObjectSchema,
  pipeUpstreamBytes,
} from '@switchyard/core';
export { type OpenAISettings, openAISettingsSchema, switchyardProvider } from './switchyard-provider.js';
export { MISTRAL_SINGLE_CHOICE_MODELS, mistralQuirks, toMistralToolCallId } from './presets/mistral-quirks.js';
export type { ChatQuirks, OpenAICompatiblePreset } from './presets/openai-compatible-preset.js';
export { OPENAI_COMPATIBLE_PRESETS } from './presets/openai-compatible-presets.js';
export { type PresetSettings, presetFactory, switchyardProviders } from './presets/preset-factory.js';
export { fixXaiUsage, xaiQuirks } from './presets/xai-quirks.js';
export { passResponsesEvents } from './pass-responses-events.js';
export { responsesUsageToChat } from './responses-usage-to-chat.js';
export { type ModerationDialect, openAIModerationDialect } from './moderation-dialect.js';
export { OPENAI_MODERATION_CATEGORIES, mistralModerationDialect } from './presets/mistral-moderation.js';
export { openAIRealtimeUpstream, webSocketURL } from './openai-realtime-upstream.js';
export {
  type BatchApiInit,
  OPENAI_BATCH_ENDPOINTS,
  type OpenAIBatchApiOptions,
  openAIBatchApi,
} from './openai-batch-api.js';
