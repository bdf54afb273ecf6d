import type { ModelPrice, RealtimeUsage } from '@switchyard/core';

/** The token counts of one Realtime response's usage by kind, tokens (what {@link computeRealtimeCostUsd} prices). */
export interface RealtimeTokens {
  /** Input tokens, cached ones included (`input_tokens`). */
  input: number;
  /** Output tokens (`output_tokens`). */
  output: number;
  /** Uncached audio input tokens. */
  audioInput: number;
  /** Cached audio input tokens. */
  cachedAudioInput: number;
  /** Uncached text (and image) input tokens. */
  textInput: number;
  /** Cached text (and image) input tokens. */
  cachedTextInput: number;
  /** Audio output tokens. */
  audioOutput: number;
  /** Text output tokens. */
  textOutput: number;
}

/**
 * Splits a Realtime `usage` into what is priced apart: cached and uncached audio and text input, audio and text output.
 * Cached tokens are part of `input_tokens`; without `cached_tokens_details` they are taken as text; without
 * `audio_tokens` everything is text. Totals are `input_tokens` and `output_tokens` (else the sums of their details).
 * @see https://platform.openai.com/docs/api-reference/realtime-server-events/response/done
 */
export function realtimeTokens(usage: RealtimeUsage | undefined): RealtimeTokens {
  const inDetails = usage?.input_token_details;
  const outDetails = usage?.output_token_details;
  const input =
    usage?.input_tokens ??
    (inDetails?.text_tokens ?? 0) + (inDetails?.audio_tokens ?? 0) + (inDetails?.image_tokens ?? 0);
  const output = usage?.output_tokens ?? (outDetails?.text_tokens ?? 0) + (outDetails?.audio_tokens ?? 0);
  const audioIn = Math.min(inDetails?.audio_tokens ?? 0, input);
  const cached = Math.min(inDetails?.cached_tokens ?? 0, input);
  const cachedAudio = Math.min(inDetails?.cached_tokens_details?.audio_tokens ?? 0, cached, audioIn);
  const audioOutput = Math.min(outDetails?.audio_tokens ?? 0, output);
  return {
    input,
    output,
    audioInput: audioIn - cachedAudio,
    cachedAudioInput: cachedAudio,
    textInput: input - audioIn - (cached - cachedAudio),
    cachedTextInput: cached - cachedAudio,
    audioOutput,
    textOutput: output - audioOutput,
  };
}

/**
 * Cost of one Realtime response in USD, prices in USD per million tokens: text input at `input` (cached at
 * `cached_input`, default `input`), audio input at `audio_input` (default `input`; cached at `cached_audio_input`,
 * default `cached_input`, then `audio_input`), text output at `output`, audio output at `audio_output` (default
 * `output`). Zero without a price.
 */
export function computeRealtimeCostUsd(price: ModelPrice | undefined, usage: RealtimeUsage | undefined): number {
  if (!price) return 0;
  const t = realtimeTokens(usage);
  const audioIn = price.audio_input ?? price.input;
  const input =
    t.textInput * price.input +
    t.cachedTextInput * (price.cached_input ?? price.input) +
    t.audioInput * audioIn +
    t.cachedAudioInput * (price.cached_audio_input ?? price.cached_input ?? audioIn);
  const output = t.textOutput * price.output + t.audioOutput * (price.audio_output ?? price.output);
  return (input + output) / 1_000_000;
}
