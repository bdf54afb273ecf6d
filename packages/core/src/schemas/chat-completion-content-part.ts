import { z } from 'zod';

/** `{type:"text", text}` content part. */
export const textContentPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

/**
 * `{type:"image_url", image_url:{url, detail?}}`: `url` is an http(s) URL or a `data:<mime>;base64,...` URL.
 * @see https://platform.openai.com/docs/api-reference/chat/create (ChatCompletionRequestMessageContentPartImage)
 */
export const imageContentPartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});

/** `{type:"input_audio", input_audio:{data (base64), format}}` content part. */
export const inputAudioContentPartSchema = z.looseObject({
  type: z.literal('input_audio'),
  input_audio: z.looseObject({ data: z.string(), format: z.string() }),
});

/** `{type:"file", file:{file_data?, file_id?, filename?}}` content part. */
export const fileContentPartSchema = z.looseObject({ type: z.literal('file'), file: z.looseObject({}) });

/** `{type:"refusal", refusal}` content part (assistant messages only). */
export const refusalContentPartSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/** Any content part of a chat message. */
export const contentPartSchema = z.discriminatedUnion('type', [
  textContentPartSchema,
  imageContentPartSchema,
  inputAudioContentPartSchema,
  fileContentPartSchema,
  refusalContentPartSchema,
]);

/** A content part of a chat message (text, image, audio, file or refusal). */
export type ContentPart = z.infer<typeof contentPartSchema>;
/** A text content part. */
export type TextContentPart = z.infer<typeof textContentPartSchema>;
/** An image content part. */
export type ImageContentPart = z.infer<typeof imageContentPartSchema>;
