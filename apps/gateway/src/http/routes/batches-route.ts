import type { Router } from 'express';
import type { Batches } from '../../batches/batches.js';
import { keyOwner } from '../key-owner.js';
import { optionalJsonBody, parseJsonBody } from '../middleware/parse-json-body.js';
import { locals } from '../request-locals.js';
import { sendJson } from '../send-json.js';

/**
 * `/v1/batches`: `POST` creates (`input_file_id`, `endpoint`, `completion_window: "24h"`, `metadata`), `GET` lists
 * (`limit`, `after`), `GET /{id}` retrieves, `POST /{id}/cancel` cancels. Batches belong to the key that created them;
 * any other key gets 404. `onCreated` is told of each new batch (the runner starts on it at once).
 * @see https://platform.openai.com/docs/api-reference/batch
 */
export function addBatchesRoutes(
  router: Router,
  batches: Batches,
  bodyLimit: number | string,
  onCreated: () => void = () => {},
): void {
  router.post('/batches', ...parseJsonBody(bodyLimit), async (req, res) => {
    const batch = await batches.create(req.body, { owner: keyOwner(req), caller: locals(res).caller });
    onCreated();
    sendJson(res, batch);
  });
  router.get('/batches', async (req, res) => {
    const page = await batches.list(keyOwner(req), req.query);
    sendJson(res, {
      object: 'list',
      data: page.data,
      first_id: page.data[0]?.id ?? null,
      last_id: page.data.at(-1)?.id ?? null,
      has_more: page.has_more,
    });
  });
  router.get('/batches/:id', async (req, res) => {
    sendJson(res, await batches.get(req.params.id, keyOwner(req)));
  });
  router.post('/batches/:id/cancel', ...optionalJsonBody(bodyLimit), async (req, res) => {
    sendJson(res, await batches.cancel(String(req.params.id), keyOwner(req)));
  });
}
