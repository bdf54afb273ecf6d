import { invalidRequestError } from '@switchyard/core';
import type { ConverseContentBlock } from './bedrock-types.js';

const FORMATS: Record<string, 'png' | 'jpeg' | 'gif' | 'webp'> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * An OpenAI `image_url` -> a Converse image block with the bytes inline (`{image:{format, source:{bytes: base64}}}`).
 * Only `data:image/(png|jpeg|gif|webp);base64,...` URLs are accepted: Converse takes image bytes (or S3 objects), not
 * web URLs, and the gateway does not fetch URLs on a client's behalf. Throws 400 naming `param` otherwise.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ImageBlock.html
 */
export function convertImageUrl(url: string, param: string): ConverseContentBlock {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) {
    throw invalidRequestError(
      `Invalid '${param}': Bedrock needs the image bytes; send a data:image/...;base64 URL instead of a web URL.`,
      param,
      'unsupported_image_url',
    );
  }
  const format = FORMATS[match[1]!.toLowerCase()];
  if (!format)
    throw invalidRequestError(
      `Invalid '${param}': Bedrock accepts png, jpeg, gif or webp images, not '${match[1]}'.`,
      param,
      'unsupported_image_format',
    );
  return { image: { format, source: { bytes: match[2]! } } };
}
