/** One recognised word of a Deepgram result; times in seconds from the start of the audio. */
export interface DeepgramWord {
  word: string;
  /** The word with punctuation and capitals (with `punctuate` / `smart_format`). */
  punctuated_word?: string;
  start: number;
  end: number;
  confidence?: number;
  speaker?: number;
}

/** A stretch of speech (with `utterances=true`); times in seconds. */
export interface DeepgramUtterance {
  start: number;
  end: number;
  transcript: string;
  confidence?: number;
  words?: DeepgramWord[];
}

/**
 * The answer of `POST /v1/listen` (pre-recorded audio): `metadata.duration` (seconds) and per channel the best
 * alternative's `transcript` and `words`; `results.utterances` when asked for.
 * @see https://developers.deepgram.com/reference/speech-to-text/listen-pre-recorded
 */
export interface DeepgramListenResponse {
  metadata?: { request_id?: string; duration?: number; model_info?: Record<string, { name?: string }> };
  results?: {
    channels?: { alternatives?: { transcript?: string; confidence?: number; words?: DeepgramWord[] }[]; detected_language?: string }[];
    utterances?: DeepgramUtterance[];
  };
}
