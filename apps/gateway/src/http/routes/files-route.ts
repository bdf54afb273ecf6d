import { pipeline } from 'node:stream/promises';
import type { FilePurpose } from '@switchyard/accounts';
import { invalidRequestError } from '@switchyard/core';
import type { Router } from 'express';
import { fileObject } from '../../files/file-object.js';
import { type Files, UPLOAD_PURPOSES } from '../../files/files.js';
import { keyOwner } from '../key-owner.js';
import { UPLOAD_ID, type UploadingRequest, uploadToStorage } from '../middleware/upload-to-storage.js';
import { sendJson } from '../send-json.js';

/** `expires_after[seconds]` bounds, as OpenAI's: 1 hour to 30 days. */
const EXPIRES_AFTER_S = { min: 3600, max: 2_592_000 };

/** The `expires_after` form fields (`expires_after[anchor]` = `created_at`, `expires_after[seconds]`), seconds. */
function expiresAfter(fields: Record<string, unknown>): number | undefined {
  const anchor = fields['expires_after[anchor]'];
  const seconds = fields['expires_after[seconds]'];
  if (anchor === undefined && seconds === undefined) return undefined;
  if (anchor !== 'created_at')
    throw invalidRequestError("Invalid 'expires_after[anchor]': expected 'created_at'.", 'expires_after[anchor]');
  const value = Number(seconds);
  if (!Number.isInteger(value) || value < EXPIRES_AFTER_S.min || value > EXPIRES_AFTER_S.max) {
    throw invalidRequestError(
      `Invalid 'expires_after[seconds]': expected an integer from ${EXPIRES_AFTER_S.min} to ${EXPIRES_AFTER_S.max}.`,
      'expires_after[seconds]',
    );
  }
  return value;
}

/**
 * `/v1/files`: `POST` uploads (multipart `file` + `purpose`, optional `expires_after`), `GET` lists (`purpose`,
 * `limit`, `after`, `order`), `GET /{id}` retrieves, `GET /{id}/content` downloads (streamed), `DELETE /{id}` deletes.
 * Every file belongs to the key that uploaded it; any other key gets 404.
 * @see https://platform.openai.com/docs/api-reference/files
 */
export function addFilesRoutes(router: Router, files: Files): void {
  router.post('/files', ...uploadToStorage(files), async (req, res) => {
    const id = (req as UploadingRequest)[UPLOAD_ID];
    const fields = (req.body ?? {}) as Record<string, unknown>;
    try {
      if (!req.file || !id) throw invalidRequestError("Missing required parameter: 'file'.", 'file');
      const purpose = fields.purpose;
      if (typeof purpose !== 'string' || !(UPLOAD_PURPOSES as readonly string[]).includes(purpose)) {
        throw invalidRequestError(`Invalid 'purpose': expected one of ${UPLOAD_PURPOSES.join(', ')}.`, 'purpose');
      }
      const unknown = Object.keys(fields).filter((name) => name !== 'purpose' && !name.startsWith('expires_after['));
      if (unknown.length > 0)
        throw invalidRequestError(`Unrecognized request argument supplied: ${unknown.join(', ')}.`, unknown[0] ?? null);
      const file = await files.add({
        id,
        owner: keyOwner(req),
        bytes: req.file.size,
        filename: req.file.originalname || 'file',
        purpose: purpose as FilePurpose,
        expiresAfterS: expiresAfter(fields),
      });
      sendJson(res, fileObject(file));
    } catch (error) {
      if (id) await files.storage.remove(id);
      throw error;
    }
  });
  router.get('/files', async (req, res) => {
    const page = await files.list(keyOwner(req), req.query);
    sendJson(res, {
      object: 'list',
      data: page.data.map(fileObject),
      first_id: page.data[0]?.id ?? null,
      last_id: page.data.at(-1)?.id ?? null,
      has_more: page.has_more,
    });
  });
  router.get('/files/:id', async (req, res) => {
    sendJson(res, fileObject(await files.get(req.params.id, keyOwner(req))));
  });
  router.get('/files/:id/content', async (req, res) => {
    const file = await files.get(req.params.id, keyOwner(req));
    res.status(200).type('application/octet-stream').set('content-length', String(file.bytes));
    await pipeline(files.storage.read(file.id), res);
  });
  router.delete('/files/:id', async (req, res) => {
    await files.delete(req.params.id, keyOwner(req));
    sendJson(res, { id: req.params.id, object: 'file', deleted: true });
  });
}
