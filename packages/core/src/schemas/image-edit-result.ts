import { z } from 'zod';
import type { ImagesResponse } from './images-response.js';

/**
 * One event of a streamed image edit (ImageEditStreamEvent): `image_edit.partial_image` (`b64_json`,
 * `partial_image_index`) or `image_edit.completed` (`b64_json`, `usage` in tokens), with `created_at`, `size`,
 * `quality`, `background`, `output_format` where the upstream sends them. Sent as SSE named after `type`.
 * @see https://platform.openai.com/docs/api-reference/images-streaming
 */
export const imageEditEventSchema = z.looseObject({
  type: z.string().min(1),
  b64_json: z.string().optional(),
  partial_image_index: z.number().int().min(0).optional(),
  usage: z
    .looseObject({
      input_tokens: z.number().optional(),
      output_tokens: z.number().optional(),
      total_tokens: z.number().optional(),
    })
    .nullish(),
});

/** One event of a streamed image edit. */
export type ImageEditEvent = z.infer<typeof imageEditEventSchema>;

/** What an image edit resolves with: the images answer, or its events when a stream was asked for. */
export type ImageEditResult = ImagesResponse | AsyncIterable<ImageEditEvent>;

/** True when an image edit's result is a stream of events. */
export function isImageEditStream(result: ImageEditResult): result is AsyncIterable<ImageEditEvent> {
  return typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
}
