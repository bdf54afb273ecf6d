import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { locals } from '../request-locals.js';
import type { RouteDeps } from './route-deps.js';

/** `POST /v1/embeddings`. */
export function addEmbeddingsRoute(router: Router, { gateway, bodyLimit, providerOf }: RouteDeps): void {
  router.post('/embeddings', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const { signal, requestId } = locals(res);
    const result = await gateway.embeddings(req.body, { signal, requestId });
    applyCallHeaders(res, result);
    res.json(result.data);
  });
}
