import { type TranscriptionRequest, UpstreamFormData } from '@switchyard/core';

/**
 * The multipart form OpenAI's `/audio/transcriptions` expects: the file (name and content type kept) plus every
 * text field of the request (arrays as repeated fields, e.g. `timestamp_granularities[]`).
 * @see https://platform.openai.com/docs/api-reference/audio/createTranscription
 */
export function buildTranscriptionForm(request: TranscriptionRequest): UpstreamFormData {
  const form = new UpstreamFormData();
  const { file, ...fields } = request;
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, typeof item === 'string' ? item : String(item));
  }
  form.append('file', new Blob([file.data as Uint8Array<ArrayBuffer>], { type: file.contentType }), file.filename);
  return form;
}
