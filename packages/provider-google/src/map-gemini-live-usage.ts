import type { RealtimeUsage } from '@switchyard/core';
import type { GeminiLiveUsage } from './gemini-live-api.js';

const byModality = (details: GeminiLiveUsage['promptTokensDetails'], modality: string) =>
  (details ?? []).filter((d) => d.modality?.toUpperCase() === modality).reduce((n, d) => n + (d.tokenCount ?? 0), 0);

/**
 * Gemini Live `usageMetadata` as a Realtime `response.done` usage (tokens): `promptTokenCount` -> `input_tokens`
 * (`AUDIO` / `TEXT` / `IMAGE`+`VIDEO` details -> `audio_tokens` / `text_tokens` / `image_tokens`,
 * `cachedContentTokenCount` -> `cached_tokens`), `responseTokenCount` -> `output_tokens` (`AUDIO` / `TEXT`).
 * Without details every token counts as text.
 * @see https://ai.google.dev/api/live#usagemetadata
 */
export function mapGeminiLiveUsage(usage: GeminiLiveUsage): RealtimeUsage {
  const input = usage.promptTokenCount ?? 0;
  const output = usage.responseTokenCount ?? 0;
  const audioIn = byModality(usage.promptTokensDetails, 'AUDIO');
  const imageIn = byModality(usage.promptTokensDetails, 'IMAGE') + byModality(usage.promptTokensDetails, 'VIDEO');
  const audioOut = byModality(usage.responseTokensDetails, 'AUDIO');
  return {
    total_tokens: input + output,
    input_tokens: input,
    output_tokens: output,
    input_token_details: {
      cached_tokens: usage.cachedContentTokenCount ?? 0,
      text_tokens: Math.max(0, input - audioIn - imageIn),
      audio_tokens: audioIn,
      image_tokens: imageIn,
    },
    output_token_details: { text_tokens: Math.max(0, output - audioOut), audio_tokens: audioOut },
  };
}
