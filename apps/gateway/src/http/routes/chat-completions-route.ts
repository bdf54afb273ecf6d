import { isChunkStream } from '@switchyard/core';
import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { sendJson } from '../send-json.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { callOptions } from '../call-options.js';
import type { RouteDeps } from './route-deps.js';
import { sendSSE } from '../send-sse.js';

/** `POST /v1/chat/completions`: JSON answer, or SSE when `stream: true`. */
export function addChatCompletionsRoute(router: Router, { gateway, bodyLimit, providerOf, secrets, sse }: RouteDeps): void {
  router.post('/chat/completions', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const result = await gateway.chatCompletions(req.body, callOptions(req, res));
    applyCallHeaders(res, result);
    if (isChunkStream(result.data)) await sendSSE(res, result.data, { secrets, ...sse });
    else sendJson(res, result.data);
  });
}
