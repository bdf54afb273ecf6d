import { z } from 'zod';

/**
 * A URL citation on an assistant message, as OpenAI's chat completions carry them in `message.annotations` (and, as
 * Switchyard streams them, in `delta.annotations`): `{type: "url_citation", url_citation: {start_index, end_index,
 * url, title}}`. `start_index` (inclusive) and `end_index` (exclusive) are offsets in the message's `content`, in
 * UTF-16 code units (JavaScript string indexes), of the text the source supports. Adapters set them from the
 * upstream's own citations: Anthropic's `web_search_result_location` citations on text blocks, Gemini's Google Search
 * `groundingSupports`.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices-message-annotations
 */
export const urlCitationAnnotationSchema = z.looseObject({
  type: z.literal('url_citation'),
  url_citation: z.looseObject({
    start_index: z.number().int().min(0),
    end_index: z.number().int().min(0),
    url: z.string(),
    title: z.string(),
  }),
});

/** A URL citation on an assistant message (see {@link urlCitationAnnotationSchema}). */
export type UrlCitationAnnotation = z.infer<typeof urlCitationAnnotationSchema>;

/**
 * One entry of a message's `annotations` as read from an upstream: a {@link UrlCitationAnnotation}, or another type
 * OpenAI may add later (kept as sent, never a reason to refuse the answer).
 */
export const messageAnnotationSchema = z.union([urlCitationAnnotationSchema, z.looseObject({ type: z.string() })]);

/** One entry of a message's `annotations` (see {@link messageAnnotationSchema}). */
export type MessageAnnotation = z.infer<typeof messageAnnotationSchema>;
