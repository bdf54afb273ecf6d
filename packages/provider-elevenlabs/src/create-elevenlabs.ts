import {
  ADAPTER_SPEC_VERSION,
  type ProviderAdapter,
  type RefusedParameter,
  type UpstreamTimeouts,
  checkRequestParameters,
  invalidRequestError,
  sendUpstreamRequest,
  pipeUpstreamBytes,
} from '@switchyard/core';
import { mapElevenLabsError } from './map-elevenlabs-error.js';
import { elevenLabsFormat, streamingWavHeader } from './speech-formats.js';

/** OpenAI's built-in voice names; one of these must be mapped in `voices` to be used. */
export const OPENAI_VOICES = [
  'alloy',
  'ash',
  'ballad',
  'cedar',
  'coral',
  'echo',
  'fable',
  'marin',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
] as const;

/** Speech fields this adapter translates (`speed` as `voice_settings.speed`, `response_format` as `output_format`). */
const HANDLED = new Set(['model', 'input', 'voice', 'response_format', 'speed', 'stream_format']);
/** Speech fields refused when their value would change the answer. */
const REFUSED: readonly RefusedParameter[] = [
  {
    param: 'stream_format',
    isSet: (value) => value === 'sse',
    why: "ElevenLabs streams raw audio; use stream_format 'audio'.",
  },
];

/** Options of {@link createElevenLabs}. */
export interface ElevenLabsOptions {
  /** The ElevenLabs API key, sent as `xi-api-key`. */
  apiKey: string;
  /** Default `https://api.elevenlabs.io`. */
  baseURL?: string;
  /** OpenAI voice name -> ElevenLabs voice id, e.g. `{ alloy: "21m00Tcm4TlvDq8ikWAM" }`. */
  voices?: Record<string, string>;
  /** Per-call upstream limits, ms (`headersMs`, `bodyIdleMs`). */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
}

async function* withPrefix(prefix: Uint8Array, body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield prefix;
  yield* body;
}

/**
 * An adapter for ElevenLabs text-to-speech: `speech` only (`POST /v1/audio/speech` with an ElevenLabs model such as
 * `eleven_multilingual_v2`). It calls `POST <baseURL>/v1/text-to-speech/{voice_id}/stream?output_format=...` with
 * `{ text, model_id, voice_settings.speed? }` and streams the audio back as it arrives, never buffered.
 * `voice` is an OpenAI voice name mapped through `voices`, a name or id listed there, or an ElevenLabs voice id
 * (`{ id }` or a string that is not an OpenAI voice name); an OpenAI name that is not mapped is a 400 naming `voice`.
 * `response_format`: see elevenLabsFormat (aac/flac: 400). `speed` is sent as `voice_settings.speed` (ElevenLabs
 * accepts 0.7..1.2; others: 400 naming `speed`); `stream_format: "sse"` is a 400 naming it (the audio comes raw);
 * `instructions` and every other field not translated are dropped with an `x-switchyard-warning`.
 * Throws GatewayError: ElevenLabs' status and message (mapElevenLabsError), 502/504 on transport failures (also
 * mid-stream), the abort reason when `context.signal` aborts.
 * @see https://elevenlabs.io/docs/api-reference/text-to-speech/stream
 */
export function createElevenLabs(options: ElevenLabsOptions): ProviderAdapter {
  const baseURL = (options.baseURL ?? 'https://api.elevenlabs.io').replace(/\/+$/, '');
  const secrets = [options.apiKey];
  const voices = options.voices ?? {};
  const voiceId = (voice: string | { id: string }): string => {
    if (typeof voice !== 'string') return voice.id;
    if (voices[voice]) return voices[voice];
    if ((OPENAI_VOICES as readonly string[]).includes(voice)) {
      throw invalidRequestError(
        `The voice '${voice}' is not mapped to an ElevenLabs voice id (providers.<name>.voices.${voice}); pass an ElevenLabs voice id instead.`,
        'voice',
      );
    }
    return voice;
  };
  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'elevenlabs',
    async speech(request, context) {
      const format = elevenLabsFormat(request.response_format);
      if (request.speed !== undefined && (request.speed < 0.7 || request.speed > 1.2)) {
        throw invalidRequestError(
          `ElevenLabs accepts speed from 0.7 to 1.2, not ${request.speed}.`,
          'speed',
          'unsupported_value',
        );
      }
      for (const warning of checkRequestParameters(request, {
        upstream: 'ElevenLabs',
        handled: HANDLED,
        refused: REFUSED,
      }))
        context.warn(warning);
      const body = {
        text: request.input,
        model_id: request.model,
        ...(request.speed !== undefined ? { voice_settings: { speed: request.speed } } : {}),
      };
      const response = await sendUpstreamRequest({
        provider: context.provider,
        url: `${baseURL}/v1/text-to-speech/${encodeURIComponent(voiceId(request.voice))}/stream?output_format=${format.outputFormat}`,
        headers: {
          ...context.headers,
          'xi-api-key': options.apiKey,
          'content-type': 'application/json',
          accept: '*/*',
        },
        body: JSON.stringify(body),
        signal: context.signal,
        timeouts: options.timeouts,
        upstream: context.upstream,
        mapError: (status, text, headers) => mapElevenLabsError(context.provider, status, text, headers, secrets),
      });
      const audio = pipeUpstreamBytes(context.provider, response.body, context.signal);
      return {
        contentType: format.contentType,
        body: format.wavHeader ? withPrefix(streamingWavHeader(), audio) : audio,
      };
    },
  };
}
