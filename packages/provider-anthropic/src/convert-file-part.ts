import { invalidRequestError } from '@switchyard/core';
import type { AnthropicContentBlock } from './anthropic-types.js';

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.+)$/is;

/**
 * OpenAI `file` part (`{type:"file", file:{file_data, filename?}}`, `file_data` a base64 data URL) -> Anthropic
 * document block: a PDF (`application/pdf`) -> `{type:"document", source:{type:"base64", media_type, data}}`, a plain
 * text file (`text/plain`) -> `{type:"document", source:{type:"text", media_type:"text/plain", data: <decoded text>}}`;
 * `filename` becomes the document's `title`. Throws 400 naming `param` for a `file_id` (OpenAI's file store is not
 * reachable from Anthropic) or another media type.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/pdf-support
 */
export function convertFilePart(
  file: { file_data?: unknown; file_id?: unknown; filename?: unknown },
  param: string,
): AnthropicContentBlock {
  const data = typeof file.file_data === 'string' ? DATA_URL.exec(file.file_data) : null;
  if (!data) {
    const why =
      file.file_id !== undefined
        ? "OpenAI file ids cannot be read by Anthropic; send 'file_data'"
        : "'file_data' must be a base64 data URL";
    throw invalidRequestError(`Invalid '${param}': ${why}.`, param, 'unsupported_content');
  }
  const mediaType = data[1]!.toLowerCase();
  const title = typeof file.filename === 'string' && file.filename !== '' ? { title: file.filename } : {};
  if (mediaType === 'application/pdf')
    return { type: 'document', source: { type: 'base64', media_type: mediaType, data: data[2]! }, ...title };
  if (mediaType === 'text/plain') {
    return {
      type: 'document',
      source: { type: 'text', media_type: 'text/plain', data: Buffer.from(data[2]!, 'base64').toString('utf8') },
      ...title,
    };
  }
  throw invalidRequestError(
    `Invalid '${param}': Anthropic models read PDF and plain text files, not '${mediaType}'.`,
    param,
    'unsupported_content',
  );
}
