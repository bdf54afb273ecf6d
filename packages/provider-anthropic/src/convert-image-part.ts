import { invalidRequestError } from '@switchyard/core';
import type { AnthropicContentBlock } from './anthropic-types.js';

const DATA_URL = /^data:(image\/(?:jpeg|jpg|png|gif|webp));base64,(.+)$/is;

/**
 * OpenAI `image_url` part (`{type:"image_url", image_url:{url, detail?}}`) -> Anthropic image block:
 * - a `data:image/<jpeg|png|gif|webp>;base64,<data>` URL -> `{type:"image", source:{type:"base64", media_type, data}}`
 *   (`image/jpg` is sent as `image/jpeg`);
 * - an `http(s)://` URL -> `{type:"image", source:{type:"url", url}}` (Anthropic fetches it).
 * `detail` has no Anthropic equivalent and is not sent. Throws 400 `invalid_image_url` naming `param` for any other
 * URL or media type.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/vision
 */
export function convertImagePart(url: string, param: string): AnthropicContentBlock {
  const data = DATA_URL.exec(url);
  if (data) {
    const mediaType = data[1]!.toLowerCase() === 'image/jpg' ? 'image/jpeg' : data[1]!.toLowerCase();
    return { type: 'image', source: { type: 'base64', media_type: mediaType, data: data[2]! } };
  }
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw invalidRequestError(
    `Invalid '${param}': Anthropic models take images as http(s) URLs or base64 data URLs of JPEG, PNG, GIF or WebP images.`,
    param,
    'invalid_image_url',
  );
}
