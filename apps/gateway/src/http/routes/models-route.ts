import type { Router } from 'express';
import { locals } from '../request-locals.js';
import { sendJson } from '../send-json.js';
import type { RouteDeps } from './route-deps.js';

/** `GET /v1/models` and `GET /v1/models/{model}` (ids may contain `/`, e.g. `openai/gpt-4o-mini`). */
export function addModelsRoutes(router: Router, { gateway }: RouteDeps): void {
  router.get('/models', async (_req, res) => {
    const { signal, requestId } = locals(res);
    sendJson(res, await gateway.listModels({ signal, requestId }));
  });
  router.get('/models/*model', async (req, res) => {
    const segments = (req.params as { model: string[] | string }).model;
    const id = Array.isArray(segments) ? segments.join('/') : segments;
    locals(res).model = id;
    const { signal, requestId } = locals(res);
    sendJson(res, await gateway.retrieveModel(id, { signal, requestId }));
  });
}
