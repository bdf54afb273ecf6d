export { createElevenLabs, type ElevenLabsOptions, OPENAI_VOICES } from './create-elevenlabs.js';
export { mapElevenLabsError } from './map-elevenlabs-error.js';
export { type ElevenLabsFormat, elevenLabsFormat, PCM_SAMPLE_RATE, streamingWavHeader } from './speech-formats.js';
export { type ElevenLabsSettings, elevenLabsSettingsSchema, switchyardProvider } from './switchyard-provider.js';
