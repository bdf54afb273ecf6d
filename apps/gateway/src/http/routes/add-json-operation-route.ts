import type { GatewayCallOptions, GatewayCallResult } from '@switchyard/core';
import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { callOptions } from '../call-options.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { sendJson } from '../send-json.js';
import type { RouteDeps } from './route-deps.js';

/**
 * Registers `POST <path>` for an operation that takes a JSON body and answers JSON: parse, note the model for the log,
 * run `call`, set the call headers and send the answer.
 */
export function addJsonOperationRoute(
  router: Router,
  path: string,
  { bodyLimit, providerOf }: RouteDeps,
  call: (body: unknown, options: GatewayCallOptions) => Promise<GatewayCallResult<unknown>>,
): void {
  router.post(path, ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const result = await call(req.body, callOptions(req, res));
    applyCallHeaders(res, result);
    sendJson(res, result.data);
  });
}
