export { buildTranscriptionForm } from './build-transcription-form.js';
export { type OpenAIOptions, createOpenAI } from './create-openai.js';
export { mapOpenAIError } from './map-openai-error.js';
export { parseOpenAIChunkStream } from './parse-openai-chunk-stream.js';
export { pipeUpstreamBytes } from './pipe-upstream-bytes.js';
export { readUpstreamText } from './read-upstream-text.js';
export { type OpenAISettings, openAISettingsSchema, switchyardProvider } from './switchyard-provider.js';
