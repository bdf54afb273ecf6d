import { z } from 'zod';

// The fields this adapter reads of Deepgram's pre-recorded `POST /v1/listen` answer, as zod schemas: only what is
// read, every other field kept as sent (`looseObject`). The answer goes through `deepgramListenResponseSchema`, so
// that a malformed one is a 502 `upstream_invalid_response` naming the provider, never a cast or a `TypeError`.

/** Seconds from the start of the audio (non-negative). */
const seconds = z.number().min(0);

/** One recognised word of a Deepgram result; times in seconds from the start of the audio. */
export const deepgramWordSchema = z.looseObject({
  word: z.string(),
  /** The word with punctuation and capitals (with `punctuate` / `smart_format`). */
  punctuated_word: z.string().optional(),
  start: seconds,
  end: seconds,
  confidence: z.number().optional(),
  speaker: z.number().optional(),
});

/** A stretch of speech (with `utterances=true`); times in seconds. */
export const deepgramUtteranceSchema = z.looseObject({
  start: seconds,
  end: seconds,
  transcript: z.string(),
  confidence: z.number().optional(),
  words: z.array(deepgramWordSchema).optional(),
});

/**
 * The `POST /v1/listen` answer: `metadata.duration` (seconds, what is billed), `results.channels[].alternatives[]`
 * (`transcript`, `words`), `results.channels[].detected_language`, `results.utterances`.
 * @see https://developers.deepgram.com/reference/speech-to-text-api/listen
 */
export const deepgramListenResponseSchema = z.looseObject({
  metadata: z.looseObject({ request_id: z.string().optional(), duration: seconds.optional() }).optional(),
  results: z
    .looseObject({
      channels: z
        .array(
          z.looseObject({
            alternatives: z
              .array(
                z.looseObject({
                  transcript: z.string().optional(),
                  confidence: z.number().optional(),
                  words: z.array(deepgramWordSchema).optional(),
                }),
              )
              .optional(),
            detected_language: z.string().optional(),
          }),
        )
        .optional(),
      utterances: z.array(deepgramUtteranceSchema).optional(),
    })
    .optional(),
});

/** A recognised word. */
export type DeepgramWord = z.infer<typeof deepgramWordSchema>;
/** An utterance. */
export type DeepgramUtterance = z.infer<typeof deepgramUtteranceSchema>;
/** A `/v1/listen` answer as read. */
export type DeepgramListenResponse = z.infer<typeof deepgramListenResponseSchema>;
