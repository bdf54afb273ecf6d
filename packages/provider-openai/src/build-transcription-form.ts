import {
  type MultipartFormBody,
  type MultipartPart,
  type TranscriptionRequest,
  type TranslationRequest,
  multipartFormBody,
} from '@switchyard/core';

/**
 * The multipart form OpenAI's `/audio/transcriptions` and `/audio/translations` expect, as a body ready to send (`{ body, headers }` with the
 * `content-type` that names its boundary): every text field of the request (arrays as repeated fields, e.g.
 * `timestamp_granularities[]`), then the file with its name and content type, its bytes not copied (see
 * `multipartFormBody`).
 * @see https://platform.openai.com/docs/api-reference/audio/createTranscription
 * @see https://platform.openai.com/docs/api-reference/audio/createTranslation
 */
export function buildTranscriptionForm(request: TranscriptionRequest | TranslationRequest): MultipartFormBody {
  const { file, ...fields } = request;
  const parts: MultipartPart[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value])
      parts.push({ name, value: typeof item === 'string' ? item : String(item) });
  }
  parts.push({ name: 'file', data: file.data, filename: file.filename, contentType: file.contentType });
  return multipartFormBody(parts);
}
