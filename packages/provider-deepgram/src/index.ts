export { buildSegments, type TranscriptionSegment } from './build-segments.js';
export { createDeepgram, type DeepgramOptions } from './create-deepgram.js';
export * from './deepgram-api.js';
export { toSrt, toVtt } from './format-subtitles.js';
export { mapDeepgramError } from './map-deepgram-error.js';
export { type DeepgramSettings, deepgramSettingsSchema, switchyardProvider } from './switchyard-provider.js';
export { toTranscriptionResult } from './to-transcription-result.js';
