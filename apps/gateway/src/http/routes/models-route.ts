import { publishedPrice } from '@switchyard/accounts';
import { type Gateway, type Model, checkModelId } from '@switchyard/core';
import { type ErrorRequestHandler, Router } from 'express';
import { formatWarnings } from '../apply-call-headers.js';
import { acceptXApiKey } from '../middleware/accept-x-api-key.js';
import { authenticate } from '../middleware/authenticate.js';
import { handleAnthropicErrors } from '../middleware/handle-anthropic-errors.js';
import { locals } from '../request-locals.js';
import { sendJson } from '../send-json.js';
import { anthropicModelPage, toAnthropicModel, wantsAnthropicModels } from './anthropic-model-list.js';
import { modelDisplayName } from './model-display-name.js';
import type { RouteDeps } from './route-deps.js';

/**
 * `model` with the prices the ledger bills it at (`pricing`, USD per million tokens, and `price_source`); `nativeBatches`
 * false (config `batches.native: false`): batch prices without the native discount, as the gateway runs the lines.
 */
function priced(gateway: Gateway, model: Model, nativeBatches = true): Model {
  return { ...model, ...publishedPrice(gateway.router.peek(model.id)?.models[0]?.targets[0], nativeBatches) };
}

/**
 * `GET /v1/models` and `GET /v1/models/{model}` (ids may contain `/`, e.g. `openai/gpt-4o-mini`), to mount at
 * `/models`. Every entry carries `pricing` and `price_source` (see `publishedPrice`). A request with `x-api-key` or
 * `anthropic-version` (Claude Code, Anthropic's SDK) is authenticated by `x-api-key` too and answered in Anthropic's
 * shape (`data[]` of `{type, id, display_name, created_at}`, `display_name` from `modelDisplayName`, `has_more`,
 * `first_id`, `last_id`; errors as Anthropic's);
 * others in OpenAI's. A provider whose list fails or takes longer than its deadline is left out, named in
 * `x-switchyard-warning`.
 * @see https://platform.openai.com/docs/api-reference/models/list
 * @see https://docs.anthropic.com/en/api/models-list
 */
export function createModelsRouter({ gateway, nativeBatches }: RouteDeps): Router {
  const router = Router();
  router.use(acceptXApiKey());
  router.use(authenticate(gateway));
  router.get('/', async (req, res) => {
    const { signal, requestId } = locals(res);
    const { list, warnings } = await gateway.listModelsWithWarnings({ signal, requestId });
    if (warnings.length > 0) res.setHeader('x-switchyard-warning', formatWarnings(warnings));
    const data = list.data.map((m) => priced(gateway, m, nativeBatches));
    if (wantsAnthropicModels(req))
      sendJson(
        res,
        anthropicModelPage(
          data.map((m) => toAnthropicModel(m, modelDisplayName(gateway, m.id))),
          req.query,
        ),
      );
    else sendJson(res, { object: 'list', data });
  });
  router.get('/*model', async (req, res) => {
    const segments = (req.params as { model: string[] | string }).model;
    const id = Array.isArray(segments) ? segments.join('/') : segments;
    locals(res).model = checkModelId(id);
    const { signal, requestId } = locals(res);
    const model = priced(gateway, await gateway.retrieveModel(id, { signal, requestId }), nativeBatches);
    sendJson(res, wantsAnthropicModels(req) ? toAnthropicModel(model, modelDisplayName(gateway, id)) : model);
  });
  const anthropicErrors = handleAnthropicErrors();
  const errors: ErrorRequestHandler = (error, req, res, next) =>
    wantsAnthropicModels(req) ? anthropicErrors(error, req, res, next) : next(error);
  router.use(errors);
  return router;
}
