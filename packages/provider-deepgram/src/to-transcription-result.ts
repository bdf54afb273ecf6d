import type { TranscriptionRequest, TranscriptionResult } from '@switchyard/core';
import { buildSegments } from './build-segments.js';
import type { DeepgramListenResponse } from './deepgram-api.js';
import { toSrt, toVtt } from './format-subtitles.js';

const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Builds the OpenAI transcription answer in the asked `response_format` from a Deepgram `/v1/listen` answer (first
 * channel, best alternative):
 * - `json` (default): `{ text, usage: { type: "duration", seconds } }`;
 * - `text`: the transcript as `text/plain`;
 * - `verbose_json`: `{ task: "transcribe", language, duration (s), text, segments }` plus `words` (`{word, start, end}`,
 *   seconds) when `timestamp_granularities[]` has `word`; segments from utterances or sentences (see buildSegments);
 * - `srt`, `vtt`: subtitles of those segments.
 * `diarized_json` is rejected before the call (see createDeepgram).
 * @see https://platform.openai.com/docs/api-reference/audio/verbose-json-object
 */
export function toTranscriptionResult(
  answer: DeepgramListenResponse,
  request: TranscriptionRequest,
): TranscriptionResult {
  const channel = answer.results?.channels?.[0];
  const best = channel?.alternatives?.[0];
  const words = best?.words ?? [];
  const text = words.some((w) => w.punctuated_word)
    ? words.map((w) => w.punctuated_word ?? w.word).join(' ')
    : (best?.transcript ?? '');
  const duration = answer.metadata?.duration ?? words.at(-1)?.end ?? 0;
  const format = request.response_format ?? 'json';
  switch (format) {
    case 'text':
      return { kind: 'text', contentType: 'text/plain; charset=utf-8', body: text };
    case 'srt':
      return {
        kind: 'text',
        contentType: 'text/plain; charset=utf-8',
        body: toSrt(buildSegments(answer.results?.utterances, words)),
      };
    case 'vtt':
      return {
        kind: 'text',
        contentType: 'text/vtt; charset=utf-8',
        body: toVtt(buildSegments(answer.results?.utterances, words)),
      };
    case 'verbose_json': {
      // Multipart parsers differ: `timestamp_granularities[]` as sent, or `timestamp_granularities` with `[]` folded.
      const granularities = asArray(
        request['timestamp_granularities[]'] ?? (request.timestamp_granularities as string | string[] | undefined),
      );
      return {
        kind: 'json',
        body: {
          task: 'transcribe',
          language: request.language ?? channel?.detected_language ?? 'en',
          duration,
          text,
          segments: buildSegments(answer.results?.utterances, words),
          ...(granularities.includes('word')
            ? { words: words.map((w) => ({ word: w.punctuated_word ?? w.word, start: w.start, end: w.end })) }
            : {}),
          usage: { type: 'duration', seconds: Math.ceil(duration) },
        },
      };
    }
    default:
      return { kind: 'json', body: { text, usage: { type: 'duration', seconds: Math.ceil(duration) } } };
  }
}
