import type { Principal } from '@switchyard/accounts';
import type { Router } from 'express';
import { locals } from '../request-locals.js';
import type { RouteDeps } from './route-deps.js';
import { parseUsageQuery } from './usage-query.js';

/**
 * `GET /v1/usage`: the calling key's own totals (requests, tokens, USD), optionally `?from=&to=&model=&group_by=model|day`.
 * Static config keys share the `static` account. Without accounts the route answers 404.
 */
export function addUsageRoute(router: Router, { accounts }: RouteDeps): void {
  if (!accounts) return;
  router.get('/usage', async (req, res) => {
    const principal = locals(res).caller as Principal;
    const { filter, groupBy } = parseUsageQuery(req, ['model', 'day']);
    filter.key_id = principal.kind === 'virtual' ? principal.state.key.id : 'static';
    res.json({ object: 'list', key_id: filter.key_id, data: await accounts.usage(filter, groupBy) });
  });
}
