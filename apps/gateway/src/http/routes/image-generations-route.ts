import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { sendJson } from '../send-json.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { callOptions } from '../call-options.js';
import { admitCall } from '../metering.js';
import type { RouteDeps } from './route-deps.js';

/** `POST /v1/images/generations`. */
export function addImageGenerationsRoute(router: Router, { gateway, bodyLimit, providerOf, accounts }: RouteDeps): void {
  router.post('/images/generations', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    admitCall(res, accounts, req.body?.model, req.body);
    const result = await gateway.imageGenerations(req.body, callOptions(req, res));
    applyCallHeaders(res, result);
    sendJson(res, result.data);
  });
}
