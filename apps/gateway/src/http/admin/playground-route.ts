import type { Principal } from '@switchyard/accounts';
import { Router } from 'express';
import { addChatCompletionsRoute } from '../routes/chat-completions-route.js';
import { locals } from '../request-locals.js';
import type { RouteDeps } from '../routes/route-deps.js';

/**
 * `POST /admin/playground/chat/completions`: the console's playground. The same operation as
 * `POST /v1/chat/completions` (JSON or SSE, the same `x-switchyard-*` headers), called with the master key; its ledger
 * rows are booked to the `static` account, like calls with a config key.
 */
export function addPlaygroundRoute(router: Router, deps: RouteDeps): void {
  const playground = Router();
  const principal: Principal = { kind: 'static' };
  playground.use((_req, res, next) => {
    locals(res).caller = principal;
    next();
  });
  addChatCompletionsRoute(playground, deps);
  router.use('/playground', playground);
}
