import {
  ADAPTER_SPEC_VERSION,
  type ProviderAdapter,
  type UpstreamTimeouts,
  checkRequestParameters,
  invalidRequestError,
  readUpstreamJson,
  sendUpstreamRequest,
} from '@switchyard/core';
import { deepgramListenResponseSchema } from './deepgram-api.js';
import { mapDeepgramError } from './map-deepgram-error.js';
import { toTranscriptionResult } from './to-transcription-result.js';

/** Transcription fields this adapter translates (`timestamp_granularities[]` shapes verbose_json; see toTranscriptionResult). */
const HANDLED = new Set(['model', 'language', 'response_format', 'timestamp_granularities[]']);

/** Options of {@link createDeepgram}. */
export interface DeepgramOptions {
  /** The Deepgram API key, sent as `Authorization: Token <key>`. */
  apiKey: string;
  /** Default `https://api.deepgram.com`. */
  baseURL?: string;
  /** Per-call upstream limits, ms (`headersMs`, `bodyIdleMs`). */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
}

/**
 * An adapter for Deepgram's speech-to-text: `transcriptions` only (`POST /v1/audio/transcriptions` with a Deepgram
 * model such as `nova-3`). The uploaded file is sent as the raw body of `POST <baseURL>/v1/listen` with its content
 * type and the query `model`, `language` (or `detect_language=true` without one), `smart_format=true`,
 * `punctuate=true` and `utterances=true`; the answer is turned into the asked `response_format` (json, text, srt,
 * vtt, verbose_json; see toTranscriptionResult). `prompt`, `temperature` and every other field not translated
 * (`stream`, `include[]`, unknown ones) have no Deepgram equivalent and are dropped with an `x-switchyard-warning`;
 * `diarized_json` is rejected with 400 naming `response_format`.
 * Throws GatewayError: Deepgram's status and message (see mapDeepgramError), 502 `upstream_invalid_response` naming
 * the provider for an answer that is not JSON or not of the documented shape (`deepgramListenResponseSchema`), 502/504
 * on transport failures, the abort reason when `context.signal` aborts.
 * @see https://developers.deepgram.com/reference/speech-to-text/listen-pre-recorded
 */
export function createDeepgram(options: DeepgramOptions): ProviderAdapter {
  const baseURL = (options.baseURL ?? 'https://api.deepgram.com').replace(/\/+$/, '');
  const secrets = [options.apiKey];
  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'deepgram',
    async transcriptions(request, context) {
      if (request.response_format === 'diarized_json') {
        throw invalidRequestError(
          "Deepgram transcriptions support response_format json, text, srt, vtt and verbose_json, not 'diarized_json'.",
          'response_format',
          'unsupported_value',
        );
      }
      const { file: _file, ...fields } = request;
      for (const warning of checkRequestParameters(fields, { upstream: 'Deepgram', handled: HANDLED }))
        context.warn(warning);
      const query = new URLSearchParams({
        model: request.model,
        smart_format: 'true',
        punctuate: 'true',
        utterances: 'true',
      });
      if (request.language) query.set('language', request.language);
      else query.set('detect_language', 'true');
      const response = await sendUpstreamRequest({
        provider: context.provider,
        url: `${baseURL}/v1/listen?${query}`,
        headers: {
          ...context.headers,
          authorization: `Token ${options.apiKey}`,
          'content-type': request.file.contentType || 'application/octet-stream',
        },
        body: request.file.data,
        signal: context.signal,
        timeouts: options.timeouts,
        upstream: context.upstream,
        mapError: (status, text, headers) => mapDeepgramError(context.provider, status, text, headers, secrets),
      });
      const answer = await readUpstreamJson(context.provider, response, context.signal, deepgramListenResponseSchema);
      return toTranscriptionResult(answer, request);
    },
  };
}
