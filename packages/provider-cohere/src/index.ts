export {
  COHERE_EMBEDDING_PARAMETERS,
  COHERE_INPUT_TYPES,
  convertCohereEmbed,
  convertToCohereEmbed,
} from './cohere-embeddings.js';
export type * from './cohere-types.js';
export * from './cohere-api.js';
export { convertCohereChat } from './convert-cohere-chat.js';
export { convertCohereChatStream } from './convert-cohere-chat-stream.js';
export { convertToCohereChat } from './convert-to-cohere-chat.js';
export { type CohereOptions, createCohere } from './create-cohere.js';
export { mapCohereFinishReason, mapCohereUsage } from './map-cohere-finish.js';
export { type CohereSettings, cohereSettingsSchema, switchyardProvider } from './switchyard-provider.js';
