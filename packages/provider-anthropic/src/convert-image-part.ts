import { invalidRequestError } from '@switchyard/core';
import type { AnthropicContentBlock } from './anthropic-types.js';

const DATA_URL = /^data:(image\/(?:jpeg|png|gif|webp));base64,(.+)$/s;

/**
 * OpenAI `image_url` part -> Anthropic image block: a `data:image/...;base64,` URL becomes a base64 source (JPEG, PNG,
 * GIF or WebP), an http(s) URL a url source. Throws 400 naming `param` for other URLs or media types.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/vision
 */
export function convertImagePart(url: string, param: string): AnthropicContentBlock {
  const data = DATA_URL.exec(url);
  if (data) return { type: 'image', source: { type: 'base64', media_type: data[1]!, data: data[2]! } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  throw invalidRequestError('Images must be http(s) URLs or base64 data URLs of JPEG, PNG, GIF or WebP images.', param, 'invalid_image_url');
}
