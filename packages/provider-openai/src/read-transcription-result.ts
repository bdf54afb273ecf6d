import {
  type TranscriptionResult,
  readUpstreamJson,
  readUpstreamText,
  type sendUpstreamRequest,
} from '@switchyard/core';
import { openaiTranscriptionJsonSchema } from './openai-api.js';

/**
 * Reads the answer of OpenAI's `/audio/transcriptions` or `/audio/translations`: a JSON body (`json`, `verbose_json`:
 * `{text, ...}`, checked to hold `text`) is `{kind:'json'}`; any other content type (`text`, `srt`, `vtt`) is
 * `{kind:'text'}` with the upstream's content type. Throws 502 for a JSON body without `text`, and what
 * `readUpstreamJson`/`readUpstreamText` throw (body limits, broken body, abort).
 * @see https://platform.openai.com/docs/api-reference/audio/createTranslation
 */
export async function readTranscriptionResult(
  provider: string,
  response: Awaited<ReturnType<typeof sendUpstreamRequest>>,
  signal: AbortSignal,
): Promise<TranscriptionResult> {
  const contentType = String(response.headers['content-type'] ?? '');
  if (contentType.includes('json'))
    return { kind: 'json', body: await readUpstreamJson(provider, response, signal, openaiTranscriptionJsonSchema) };
  return {
    kind: 'text',
    contentType: contentType || 'text/plain; charset=utf-8',
    body: await readUpstreamText(provider, response, signal),
  };
}
