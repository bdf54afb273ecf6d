import { isChunkStream } from '@switchyard/core';
import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { sendJson } from '../send-json.js';
import { answerError } from '../middleware/handle-errors.js';
import { handOverStream } from '../hand-over-stream.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { callOptions } from '../call-options.js';
import type { RouteDeps } from './route-deps.js';
import { failEventStream, openWhenAccepted, sendSSE } from '../send-sse.js';

/**
 * `POST /v1/chat/completions`: JSON answer, or SSE when `stream: true`. A stream's status and headers go out with its
 * first chunk, or, when an upstream accepted the call but its first chunk takes longer than the keep-alive interval,
 * at that point (then `: keep-alive` comments until the first chunk); if the call fails after that (the attempt breaks
 * off before its first chunk and no retry or fallback succeeds), the stream ends with an error event. The handler
 * returns once the stream is under way (see {@link handOverStream}).
 */
export function addChatCompletionsRoute(
  router: Router,
  { gateway, bodyLimit, providerOf, secrets, sse }: RouteDeps,
): void {
  router.post('/chat/completions', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const options = callOptions(
      req,
      res,
      req.body?.stream === true ? openWhenAccepted(res, { secrets, ...sse }) : undefined,
    );
    let result: Awaited<ReturnType<typeof gateway.chatCompletions>>;
    try {
      result = await gateway.chatCompletions(req.body, options);
    } catch (error) {
      if (failEventStream(res, error, secrets)) return;
      throw error;
    }
    applyCallHeaders(res, result);
    if (!isChunkStream(result.data)) {
      sendJson(res, result.data);
      return;
    }
    handOverStream(req, sendSSE(res, result.data, { secrets, ...sse }), (error) => answerError(res, error, secrets));
  });
}
