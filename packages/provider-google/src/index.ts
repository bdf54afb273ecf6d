export { checkGeminiParameters } from './check-gemini-parameters.js';
export { IMAGEN_MAX_IMAGES, IMAGEN_PARAMETERS, checkImagenParameters } from './check-imagen-parameters.js';
export { cleanJsonSchema } from './clean-json-schema.js';
export {
  type ConvertedParts,
  type ConvertedToolCall,
  convertCandidateParts,
} from './convert-gemini-candidate-parts.js';
export {
  GEMINI_EMBEDDING_PARAMETERS,
  convertGeminiEmbeddings,
  convertToGeminiBatchEmbed,
} from './convert-gemini-embeddings.js';
export { convertGeminiLogprobs, type OpenAILogprobs } from './convert-gemini-logprobs.js';
export {
  answerTextParts,
  type GeminiGroundingMetadata,
  StreamGrounding,
  geminiUrlCitations,
  geminiWebSearchCalls,
} from './convert-gemini-grounding.js';
export { convertGeminiResponse } from './convert-gemini-response.js';
export { convertGeminiStream, mapGeminiStreamError } from './convert-gemini-stream.js';
export { convertToGeminiContents } from './convert-to-gemini-contents.js';
export { convertToGeminiRequest } from './convert-to-gemini-request.js';
export { createGoogle, type GoogleOptions } from './create-google.js';
export { convertImagenResponse, convertToImagenRequest } from './imagen.js';
export { GEMINI_THINKING_BUDGETS, geminiThinkingConfig } from './gemini-thinking-config.js';
export type * from './gemini-types.js';
export * from './gemini-api.js';
export { mapGeminiError } from './map-gemini-error.js';
export { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
export { mapGeminiUsage } from './map-gemini-usage.js';
export { type GoogleSettings, googleSettingsSchema, switchyardProvider } from './switchyard-provider.js';
export { decodeToolCallSignature, encodeToolCallId } from './tool-call-id.js';
export {
  type GeminiLiveServerMessage,
  type GeminiLiveUsage,
  geminiLiveServerMessageSchema,
  geminiLiveUsageSchema,
} from './gemini-live-api.js';
export { type GeminiLiveSession, geminiLiveSetup, readSessionUpdate } from './gemini-live-setup.js';
export { GEMINI_LIVE_INPUT_AUDIO, GeminiLiveTranslator } from './gemini-live-translator.js';
export { geminiLiveURL } from './gemini-live-url.js';
export { mapGeminiLiveUsage } from './map-gemini-live-usage.js';
