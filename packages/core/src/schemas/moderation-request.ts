import { z } from 'zod';
import { modelIdSchema } from './model-id.js';

/** The model `/v1/moderations` uses when the request names none, as OpenAI's API does. */
export const DEFAULT_MODERATION_MODEL = 'omni-moderation-latest';

/** One multi-modal moderation input: `{type:"text", text}` or `{type:"image_url", image_url:{url}}` (https or data URL). */
export const moderationInputPartSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string() }),
  z.looseObject({ type: z.literal('image_url'), image_url: z.looseObject({ url: z.string().min(1) }) }),
]);

/**
 * `POST /v1/moderations` body (CreateModerationRequest): `input` a string, an array of strings, or an array of
 * text and image parts (at least one entry); `model` (default {@link DEFAULT_MODERATION_MODEL}, filled in here).
 * @see https://platform.openai.com/docs/api-reference/moderations/create
 */
export const moderationRequestSchema = z.looseObject({
  input: z.union([z.string(), z.array(z.string()).min(1), z.array(moderationInputPartSchema).min(1)]),
  model: modelIdSchema.default(DEFAULT_MODERATION_MODEL),
});

/** A parsed moderation request (`model` always set). */
export type ModerationRequest = z.infer<typeof moderationRequestSchema>;
/** One text or image part of a moderation `input`. */
export type ModerationInputPart = z.infer<typeof moderationInputPartSchema>;
