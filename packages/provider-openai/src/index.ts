export { type OpenAIOptions, createOpenAI } from './create-openai.js';
export { mapOpenAIError } from './map-openai-error.js';
export { parseOpenAIChunkStream } from './parse-openai-chunk-stream.js';
export { type OpenAISettings, openAISettingsSchema, switchyardProvider } from './switchyard-provider.js';
