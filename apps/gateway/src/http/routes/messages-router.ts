import { countTextTokens } from '@switchyard/accounts';
import { type GatewayWarning, isChunkStream } from '@switchyard/core';
import {
  convertChatCompletion,
  convertChatStream,
  convertMessagesRequest,
  encodeAnthropicErrorEvent,
  passThroughEvents,
  promptText,
  validateCountTokensRequest,
  validateMessagesRequest,
} from '@switchyard/front-door-messages';
import { type Request, Router } from 'express';
import { addWarningHeader, applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { callOptions } from '../call-options.js';
import { acceptXApiKey } from '../middleware/accept-x-api-key.js';
import { authenticate } from '../middleware/authenticate.js';
import { answerAnthropicError, handleAnthropicErrors } from '../middleware/handle-anthropic-errors.js';
import { handOverStream } from '../hand-over-stream.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { failEventStream, openWhenAccepted, sendEventStream } from '../send-sse.js';
import { sendJson } from '../send-json.js';
import type { RouteDeps } from './route-deps.js';

/** The client headers Anthropic's gateway protocol says to forward: `anthropic-beta` and `anthropic-version`. */
const FORWARDED = ['anthropic-beta', 'anthropic-version'] as const;

/** The request's {@link FORWARDED} headers, as sent (repeated headers joined with a comma). */
function anthropicHeaders(req: Request): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = req.headers[name];
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return headers;
}

/**
 * Anthropic's Messages API, to mount at `/v1/messages`: `POST /` and `POST /count_tokens`, authenticated by a gateway
 * key in `x-api-key` or `Authorization: Bearer`, answering errors in Anthropic's shape. A model whose first deployment
 * speaks the Messages API (Anthropic, Claude on Vertex or Bedrock) gets the request as it is, with the client's
 * `anthropic-beta` and `anthropic-version`, and answers unchanged (thinking blocks, signatures, cache control kept); any other model is served through the canonical chat translation. Both go through
 * the gateway's routing, limits, metering and ledger. A stream's status and headers go out with its first event, or,
 * when an upstream accepted the call but its first event takes longer than the keep-alive interval, at that point (then
 * `: keep-alive` comments); if the call then fails, the stream ends with an Anthropic `error` event. `count_tokens`
 * asks an Anthropic-family deployment's own counter and estimates for others (`countTextTokens`); it is admitted and
 * booked like any call (allow-list, rpm; cost 0). Claude Code's session and agent headers label the ledger rows.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function createMessagesRouter(deps: RouteDeps): Router {
  const { gateway, bodyLimit, providerOf } = deps;
  const router = Router();
  router.use(acceptXApiKey());
  router.use(authenticate(gateway));

  router.post('/', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const request = validateMessagesRequest(req.body);
    let frontDoorWarnings: readonly GatewayWarning[] = [];
    const onAccepted =
      request.stream === true
        ? openWhenAccepted(res, { secrets: deps.secrets, ...deps.sse }, () => frontDoorWarnings)
        : undefined;
    const options = callOptions(req, res, onAccepted, anthropicHeaders(req));
    // A call that fails once its stream is open ends it with an error event (undefined: nothing more to answer).
    const failed = (error: unknown): undefined => {
      if (!failEventStream(res, error, deps.secrets, encodeAnthropicErrorEvent)) throw error;
      return undefined;
    };
    // A stream runs on after this handler has returned (see handOverStream).
    const onStreamError = (error: unknown) => answerAnthropicError(res, error, deps.secrets);
    if (gateway.supportsAnthropicMessages(request.model)) {
      const result = await gateway.anthropicMessages(request, options).catch(failed);
      if (!result) return;
      applyCallHeaders(res, result);
      if ('events' in result.data)
        handOverStream(req, sendEventStream(res, passThroughEvents(result.data.events), deps.sse), onStreamError);
      else sendJson(res, result.data.json);
      return;
    }
    const { chatRequest, warnings } = convertMessagesRequest(request, {
      webSearch: gateway.supportsWebSearch(request.model),
    });
    frontDoorWarnings = warnings;
    const result = await gateway.chatCompletions(chatRequest, options).catch(failed);
    if (!result) return;
    applyCallHeaders(res, result);
    addWarningHeader(res, warnings);
    if (isChunkStream(result.data))
      handOverStream(req, sendEventStream(res, convertChatStream(result.data, request.model), deps.sse), onStreamError);
    else sendJson(res, convertChatCompletion(result.data, request.model));
  });

  router.post('/count_tokens', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const options = callOptions(req, res, undefined, anthropicHeaders(req));
    const result = await gateway.anthropicCountTokens(
      req.body,
      (body) => {
        const request = validateCountTokensRequest(body);
        return { request, estimate: () => countTextTokens(promptText(request)) };
      },
      options,
    );
    applyCallHeaders(res, result);
    sendJson(res, { input_tokens: result.data.input_tokens });
  });

  router.use(handleAnthropicErrors(deps.secrets));
  return router;
}
