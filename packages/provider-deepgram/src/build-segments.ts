import type { DeepgramUtterance, DeepgramWord } from './deepgram-api.js';

/** One OpenAI transcription segment (TranscriptionSegment); `start`/`end` in seconds. */
export interface TranscriptionSegment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number;
  avg_logprob: number;
  compression_ratio: number;
  no_speech_prob: number;
}

/** A gap between two words longer than this (seconds) starts a new segment. */
const PAUSE_S = 1;
/** A segment without a sentence end is cut after this many words. */
const MAX_WORDS = 30;

const wordText = (w: DeepgramWord) => w.punctuated_word ?? w.word;

function segment(id: number, start: number, end: number, text: string): TranscriptionSegment {
  // Deepgram has no token ids or log-probabilities; these are OpenAI's neutral values.
  return {
    id,
    seek: 0,
    start,
    end,
    text: text.trim(),
    tokens: [],
    temperature: 0,
    avg_logprob: 0,
    compression_ratio: 0,
    no_speech_prob: 0,
  };
}

/**
 * Segments for `verbose_json`, `srt` and `vtt`: Deepgram's utterances when it sent them (`utterances=true`), else the
 * words grouped into sentences (a word ending in `.`, `?` or `!`), cut at pauses over 1 s or after 30 words. Times
 * in seconds.
 */
export function buildSegments(
  utterances: DeepgramUtterance[] | undefined,
  words: DeepgramWord[],
): TranscriptionSegment[] {
  if (utterances?.length) return utterances.map((u, i) => segment(i, u.start, u.end, u.transcript));
  const segments: TranscriptionSegment[] = [];
  let current: DeepgramWord[] = [];
  const flush = () => {
    if (current.length === 0) return;
    segments.push(segment(segments.length, current[0]!.start, current.at(-1)!.end, current.map(wordText).join(' ')));
    current = [];
  };
  for (const word of words) {
    const previous = current.at(-1);
    if (previous && word.start - previous.end > PAUSE_S) flush();
    current.push(word);
    if (/[.?!]$/.test(wordText(word)) || current.length >= MAX_WORDS) flush();
  }
  flush();
  return segments;
}
