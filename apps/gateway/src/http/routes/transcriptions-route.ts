import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { uploadAudioFile } from '../middleware/upload-audio-file.js';
import { callOptions } from '../call-options.js';
import { multipartArrayFields } from '../multipart-array-fields.js';
import { uploadedFileOf } from '../uploaded-file.js';
import type { RouteDeps } from './route-deps.js';

/**
 * `POST /v1/audio/transcriptions` and `POST /v1/audio/translations` (English output): multipart in (the audio as
 * `file`); JSON (`json`, `verbose_json`) or text (`text`, `srt`, `vtt`) out.
 * @see https://platform.openai.com/docs/api-reference/audio
 */
export function addTranscriptionsRoute(router: Router, { gateway, providerOf }: RouteDeps): void {
  for (const operation of ['transcriptions', 'translations'] as const) {
    router.post(`/audio/${operation}`, ...uploadAudioFile(), async (req, res) => {
      const fields = multipartArrayFields((req.body ?? {}) as Record<string, unknown>);
      noteModel(res, fields.model, providerOf);
      const file = req.file ? uploadedFileOf(req.file, 'audio') : undefined;
      const result = await gateway[operation](fields, file, callOptions(req, res));
      applyCallHeaders(res, result);
      if (result.data.kind === 'json') res.json(result.data.body);
      else res.status(200).type(result.data.contentType).send(result.data.body);
    });
  }
}
