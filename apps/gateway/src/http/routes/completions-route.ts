import { toSSEStream } from '@switchyard/core';
import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { callOptions } from '../call-options.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { locals } from '../request-locals.js';
import { sendJson } from '../send-json.js';
import { failEventStream, openWhenAccepted, sendEventStream } from '../send-sse.js';
import { answerError } from '../middleware/handle-errors.js';
import { handOverStream } from '../hand-over-stream.js';
import type { RouteDeps } from './route-deps.js';

/**
 * `POST /v1/completions` (legacy text completions): JSON answer, or SSE when `stream: true` (one `data:` event per
 * `text_completion` chunk, then `data: [DONE]`; a stream that fails after its first chunk ends with one
 * `data: {"error":...}` event). Headers and keep-alive as for chat completions.
 * @see https://platform.openai.com/docs/api-reference/completions/create
 */
export function addCompletionsRoute(router: Router, { gateway, bodyLimit, providerOf, secrets, sse }: RouteDeps): void {
  router.post('/completions', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const options = callOptions(
      req,
      res,
      req.body?.stream === true ? openWhenAccepted(res, { secrets, ...sse }) : undefined,
    );
    let result: Awaited<ReturnType<typeof gateway.completions>>;
    try {
      result = await gateway.completions(req.body, options);
    } catch (error) {
      if (failEventStream(res, error, secrets)) return;
      throw error;
    }
    applyCallHeaders(res, result);
    const data = result.data;
    if (!(Symbol.asyncIterator in data)) {
      sendJson(res, data);
      return;
    }
    const onError = (error: unknown) => {
      if (!res.destroyed) locals(res).error = error;
    };
    handOverStream(req, sendEventStream(res, toSSEStream(data, onError, secrets), { secrets, ...sse }), (error) =>
      answerError(res, error, secrets),
    );
  });
}
