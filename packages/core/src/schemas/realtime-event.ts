import { z } from 'zod';

const count = z.number().int().nonnegative();

/**
 * One event of OpenAI's Realtime API, in either direction: a JSON object with a string `type` (and usually an
 * `event_id`); every other field is kept as it came (loose), since events pass through the gateway unchanged.
 * @see https://platform.openai.com/docs/api-reference/realtime-client-events
 * @see https://platform.openai.com/docs/api-reference/realtime-server-events
 */
export const realtimeEventSchema = z.looseObject({ type: z.string().min(1).max(128), event_id: z.string().optional() });

/** A Realtime event: `type`, an optional `event_id`, and the event's own fields. */
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;

/**
 * The `usage` of a Realtime response (`response.done`), tokens: `input_tokens` counts text, audio and image tokens of
 * the input, cached ones included (`input_token_details.cached_tokens`, split by kind in `cached_tokens_details`);
 * `output_tokens` counts text and audio output. Unknown fields are kept.
 * @see https://platform.openai.com/docs/api-reference/realtime-server-events/response/done
 */
export const realtimeUsageSchema = z.looseObject({
  total_tokens: count.optional(),
  input_tokens: count.optional(),
  output_tokens: count.optional(),
  input_token_details: z
    .looseObject({
      cached_tokens: count.optional(),
      text_tokens: count.optional(),
      audio_tokens: count.optional(),
      image_tokens: count.optional(),
      cached_tokens_details: z
        .looseObject({ text_tokens: count.optional(), audio_tokens: count.optional(), image_tokens: count.optional() })
        .optional(),
    })
    .optional(),
  output_token_details: z.looseObject({ text_tokens: count.optional(), audio_tokens: count.optional() }).optional(),
});

/** Token usage of one Realtime response (see {@link realtimeUsageSchema}). */
export type RealtimeUsage = z.infer<typeof realtimeUsageSchema>;

/**
 * `response.done`: the server's last event of a response, with its `status` (`completed`, `cancelled`, `failed`,
 * `incomplete`) and `usage` (absent on some cancelled responses). Only the fields the gateway meters are checked.
 * @see https://platform.openai.com/docs/api-reference/realtime-server-events/response/done
 */
export const realtimeResponseDoneSchema = z.looseObject({
  type: z.literal('response.done'),
  response: z.looseObject({
    id: z.string().optional(),
    status: z.string().optional(),
    usage: realtimeUsageSchema.nullish(),
  }),
});

/** A `response.done` event (see {@link realtimeResponseDoneSchema}). */
export type RealtimeResponseDone = z.infer<typeof realtimeResponseDoneSchema>;

/** The `error` server event the gateway sends in OpenAI's shape (see {@link realtimeErrorEvent}). */
export interface RealtimeErrorEvent {
  type: 'error';
  event_id: string;
  error: { type: string; code: string | null; message: string; param: string | null; event_id: string | null };
}

let errorEvents = 0;

/**
 * An `error` server event in OpenAI's shape: `{type:"error", event_id, error:{type, code, message, param, event_id}}`,
 * `event_id` being `event_sy_<n>` and `error.event_id` the client event that caused it, when one did.
 * @see https://platform.openai.com/docs/api-reference/realtime-server-events/error
 */
export function realtimeErrorEvent(
  type: string,
  code: string | null,
  message: string,
  causedBy: string | null = null,
  param: string | null = null,
): RealtimeErrorEvent {
  errorEvents = (errorEvents + 1) % Number.MAX_SAFE_INTEGER;
  return {
    type: 'error',
    event_id: `event_sy_${errorEvents}`,
    error: { type, code, message, param, event_id: causedBy },
  };
}
