import { checkModelId } from '@switchyard/core';
import type { Router } from 'express';
import { formatWarnings } from '../apply-call-headers.js';
import { locals } from '../request-locals.js';
import { sendJson } from '../send-json.js';
import type { RouteDeps } from './route-deps.js';

/**
 * `GET /v1/models` and `GET /v1/models/{model}` (ids may contain `/`, e.g. `openai/gpt-4o-mini`). A provider whose list
 * fails or takes longer than its deadline is left out, named in `x-switchyard-warning`.
 */
export function addModelsRoutes(router: Router, { gateway }: RouteDeps): void {
  router.get('/models', async (_req, res) => {
    const { signal, requestId } = locals(res);
    const { list, warnings } = await gateway.listModelsWithWarnings({ signal, requestId });
    if (warnings.length > 0) res.setHeader('x-switchyard-warning', formatWarnings(warnings));
    sendJson(res, list);
  });
  router.get('/models/*model', async (req, res) => {
    const segments = (req.params as { model: string[] | string }).model;
    const id = Array.isArray(segments) ? segments.join('/') : segments;
    locals(res).model = checkModelId(id);
    const { signal, requestId } = locals(res);
    sendJson(res, await gateway.retrieveModel(id, { signal, requestId }));
  });
}
