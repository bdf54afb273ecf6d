import { type GatewayWarning, isChunkStream } from '@switchyard/core';
import {
  type ResponsesFrontDoor,
  encodeResponseErrorEvent,
  forwardedResponsesHeaders,
} from '@switchyard/front-door-responses';
import type { Router } from 'express';
import { addWarningHeader, applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { callOptions } from '../call-options.js';
import { keyOwner } from '../key-owner.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { failEventStream, openWhenAccepted, sendEventStream } from '../send-sse.js';
import { answerError } from '../middleware/handle-errors.js';
import { handOverStream } from '../hand-over-stream.js';
import { sendJson } from '../send-json.js';
import type { RouteDeps } from './route-deps.js';

/**
 * The Responses API: `POST /v1/responses` (JSON, or Responses events when `stream: true`), run as a chat completion
 * through the gateway (routing, retries, fallbacks, limits, metering) - or, when the model's first deployment is an
 * OpenAI provider with `responses: native`, passed through to its `/responses` through the same routing - and `GET`/`DELETE /v1/responses/{id}` and
 * `GET /v1/responses/{id}/input_items` for stored responses of the calling key. A stream's status and headers go out
 * with its first event, or, when an upstream accepted the call but its first event takes longer than the keep-alive
 * interval, at that point (then `: keep-alive` comments); if the call then fails, the stream ends with an `error` event
 * (`sequence_number` 0) and `response.failed` (OpenAI's error codes, see `toResponseError`). On the pass-through,
 * Codex's `session-id`, `originator` and `x-codex-*` headers go on to the upstream; on translation, what was dropped
 * (hosted tools, reasoning items) is named in `x-switchyard-warning`.
 * @see https://platform.openai.com/docs/api-reference/responses
 */
export function addResponsesRoutes(router: Router, deps: RouteDeps & { responses: ResponsesFrontDoor }): void {
  const { gateway, bodyLimit, providerOf, responses } = deps;
  router.post('/responses', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const request = responses.validate(req.body);
    // Set once the request is prepared: what the translation dropped, and how a stream that fails once open ends.
    let warnings: readonly GatewayWarning[] = [];
    let failureSse: (error: unknown) => string = (error) => encodeResponseErrorEvent(error);
    const options = callOptions(
      req,
      res,
      request.stream === true
        ? openWhenAccepted(res, { secrets: deps.secrets, ...deps.sse }, () => warnings)
        : undefined,
    );
    // A call that fails once its stream is open ends it with an error event (undefined: nothing more to answer).
    const failed = (error: unknown): undefined => {
      if (!failEventStream(res, error, deps.secrets, (redacted) => failureSse(redacted))) throw error;
      return undefined;
    };
    // A stream runs on after this handler has returned (see handOverStream).
    const onStreamError = (error: unknown) => answerError(res, error, deps.secrets);
    if (gateway.supportsOpenAIResponses(request.model)) {
      const native = await responses.prepareNative(req.body, keyOwner(req));
      failureSse = (error) => responses.failureSse(error, native);
      options.upstreamHeaders = forwardedResponsesHeaders(req.headers);
      const result = await gateway.openaiResponses(native.upstreamRequest, options).catch(failed);
      if (!result) return;
      applyCallHeaders(res, result);
      if ('events' in result.data)
        handOverStream(
          req,
          sendEventStream(res, responses.nativeSse(native, result.data.events), deps.sse),
          onStreamError,
        );
      else sendJson(res, await responses.completeNative(native, result.data.json));
      return;
    }
    const prepared = await responses.prepare(req.body, keyOwner(req), {
      webSearch: gateway.supportsWebSearch(request.model),
    });
    warnings = prepared.warnings;
    failureSse = (error) => responses.failureSse(error, prepared);
    const result = await gateway
      .chatCompletions(prepared.chatRequest, options)
      .catch((error: unknown) => failed(responses.translateError(error)));
    if (!result) return;
    applyCallHeaders(res, result);
    addWarningHeader(res, warnings);
    if (isChunkStream(result.data))
      handOverStream(req, sendEventStream(res, responses.sse(prepared, result.data), deps.sse), onStreamError);
    else sendJson(res, await responses.complete(prepared, result.data));
  });
  router.get('/responses/:id', async (req, res) => {
    sendJson(res, await responses.retrieve(req.params.id, keyOwner(req)));
  });
  router.delete('/responses/:id', async (req, res) => {
    sendJson(res, await responses.delete(req.params.id, keyOwner(req)));
  });
  router.get('/responses/:id/input_items', async (req, res) => {
    sendJson(res, await responses.inputItems(req.params.id, keyOwner(req), req.query));
  });
}
