import type { UploadedFile } from '@switchyard/core';
import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { uploadAudioFile } from '../middleware/upload-audio-file.js';
import { callOptions } from '../call-options.js';
import { multipartArrayFields } from '../multipart-array-fields.js';
import type { RouteDeps } from './route-deps.js';

/** `POST /v1/audio/transcriptions`: multipart in; JSON (`json`, `verbose_json`) or text (`text`, `srt`, `vtt`) out. */
export function addTranscriptionsRoute(router: Router, { gateway, providerOf }: RouteDeps): void {
  router.post('/audio/transcriptions', ...uploadAudioFile(), async (req, res) => {
    const fields = multipartArrayFields((req.body ?? {}) as Record<string, unknown>);
    noteModel(res, fields.model, providerOf);
    const file: UploadedFile | undefined = req.file
      ? {
          data: new Uint8Array(req.file.buffer.buffer, req.file.buffer.byteOffset, req.file.buffer.byteLength),
          filename: req.file.originalname || 'audio',
          contentType: req.file.mimetype || 'application/octet-stream',
        }
      : undefined;
    const result = await gateway.transcriptions(fields, file, callOptions(req, res));
    applyCallHeaders(res, result);
    if (result.data.kind === 'json') res.json(result.data.body);
    else res.status(200).type(result.data.contentType).send(result.data.body);
  });
}
