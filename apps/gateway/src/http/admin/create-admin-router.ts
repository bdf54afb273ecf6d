import type { Accounts } from '@switchyard/accounts';
import { createKeyInputSchema, rotateKeyInputSchema, updateKeyInputSchema } from '@switchyard/accounts';
import { GatewayError, validateRequest } from '@switchyard/core';
import { type Request, Router } from 'express';
import { optionalJsonBody, parseJsonBody } from '../middleware/parse-json-body.js';
import type { RouteDeps } from '../routes/route-deps.js';
import { parseUsageQuery } from '../routes/usage-query.js';
import { authorizeAdmin, keyNotFoundError as notFound } from './admin-access-policy.js';
import { authenticateAdmin } from './admin-authentication.js';
import { addSessionRoutes } from './admin-session-routes.js';
import type { AdminSso } from './admin-sso.js';
import type { Batches } from '../../batches/batches.js';
import { addAuditRoute } from './audit-route.js';
import { addBatchesAdminRoute } from './batches-admin-route.js';
import { addDeploymentsRoutes } from './deployments-routes.js';
import { withPeriodSpend } from './keys-spend.js';
import { addPlaygroundRoute } from './playground-route.js';
import { addRequestsRoute } from './requests-route.js';
import { auditValue, recordAdminChange } from './record-admin-change.js';
import { addSsoRoutes } from './oidc-routes.js';
import { addTeamsRoutes } from './teams-routes.js';
import { assertTeamAllowed, visibleToCaller } from './team-scope.js';
import { addUsageExportRoute } from './usage-export-route.js';

/** How long a rotated key's replaced secret stays valid when the rotate body names no `grace_seconds`: one day. */
const DEFAULT_GRACE_SECONDS = 86_400;

/**
 * The admin API, authenticated by `Authorization: Bearer <admin.master_key>` (a missing or unknown key gets 401, a
 * valid non-master key 403) or by a console session cookie with a role and, on changes, a CSRF token (see
 * `authenticateAdmin`, `addSsoRoutes`, `addSessionRoutes`), each route allowed to the roles `ADMIN_ROUTE_RULES` names:
 * `POST /keys` (201 with the secret, shown once), `GET /keys` (each with `spend_usd` in
 * its current budget period), `GET /keys/:id`,
 * `PATCH /keys/:id`, `DELETE /keys/:id` (revokes), `POST /keys/:id/rotate` (`{"grace_seconds": N}`, default 86,400: a
 * new secret, shown once, the old one valid N more seconds), the teams and organisations (see `addTeamsRoutes`),
 * `GET /usage?key=&team=&organization=&end_user=&session=&model=&from=&to=&group_by=key|model|day|status|session|agent|team|organization|end_user`,
 * `GET /requests` (ledger rows), `GET /audit` (the audit log; every change above and every failed sign-in is recorded), `GET /models`, `GET /health` (deployments) and
 * `POST /playground/chat/completions` (the console's playground). `deps` are the API routes' dependencies.
 */
export function createAdminRouter(accounts: Accounts, deps: RouteDeps, sso?: AdminSso, batches?: Batches): Router {
  const router = Router();
  addSsoRoutes(router, accounts, sso);
  router.use(authenticateAdmin(accounts, sso?.sessions), authorizeAdmin(accounts));
  addSessionRoutes(router, accounts, sso);
  router.post('/keys', ...parseJsonBody('1mb'), async (req, res) => {
    const input = validateRequest(createKeyInputSchema, req.body);
    assertTeamAllowed(res, input.team_id, true);
    const created = await accounts.keys.create(input);
    await recordAdminChange(accounts, req, res, {
      action: 'key.create',
      target: created.id,
      after: auditValue(accounts.keys.get(created.id)),
    });
    res.status(201).json(created);
  });
  router.get('/keys', async (_req, res) => {
    res.json({
      object: 'list',
      data: await withPeriodSpend(
        accounts,
        visibleToCaller(res, accounts.keys.list(), (k) => k.team_id),
      ),
    });
  });
  router.get('/keys/:id', (req: Request<{ id: string }>, res) => {
    const key = accounts.keys.get(req.params.id);
    if (!key) throw notFound(req.params.id);
    res.json(key);
  });
  router.patch('/keys/:id', ...parseJsonBody('1mb'), async (req: Request<{ id: string }>, res) => {
    const input = validateRequest(updateKeyInputSchema, req.body);
    assertTeamAllowed(res, input.team_id, false);
    const before = accounts.keys.get(req.params.id);
    const key = await accounts.keys.update(req.params.id, input);
    if (!key) throw notFound(req.params.id);
    await recordAdminChange(accounts, req, res, {
      action: 'key.update',
      target: key.id,
      before: auditValue(before),
      after: auditValue(key),
    });
    res.json(key);
  });
  router.post('/keys/:id/rotate', ...optionalJsonBody('64kb'), async (req: Request<{ id: string }>, res) => {
    const { grace_seconds = DEFAULT_GRACE_SECONDS } = validateRequest(rotateKeyInputSchema, req.body);
    const before = accounts.keys.get(req.params.id);
    const key = await accounts.keys.rotate(req.params.id, grace_seconds);
    if (!key) throw notFound(req.params.id);
    await recordAdminChange(accounts, req, res, {
      action: 'key.rotate',
      target: key.id,
      before: auditValue(before),
      after: { ...auditValue(accounts.keys.get(key.id)), grace_seconds },
    });
    res.json(key);
  });
  router.delete('/keys/:id', async (req: Request<{ id: string }>, res) => {
    const before = accounts.keys.get(req.params.id);
    const key = await accounts.keys.revoke(req.params.id);
    if (!key) throw notFound(req.params.id);
    await recordAdminChange(accounts, req, res, {
      action: 'key.revoke',
      target: key.id,
      before: auditValue(before),
      after: auditValue(key),
    });
    res.json(key);
  });
  addUsageExportRoute(router, accounts);
  router.get('/usage', async (req, res) => {
    const { filter, groupBy } = parseUsageQuery(req, [
      'key',
      'model',
      'day',
      'status',
      'session',
      'agent',
      'team',
      'organization',
      'end_user',
    ]);
    res.json({ object: 'list', data: await accounts.usage(filter, groupBy) });
  });
  addTeamsRoutes(router, accounts);
  addRequestsRoute(router, accounts);
  if (batches) addBatchesAdminRoute(router, accounts, batches);
  addAuditRoute(router, accounts);
  addDeploymentsRoutes(router, deps.gateway);
  addPlaygroundRoute(router, deps);
  router.use((req) => {
    throw new GatewayError({
      status: 404,
      type: 'invalid_request_error',
      message: `Invalid URL (${req.method} ${req.baseUrl}${req.path})`,
    });
  });
  return router;
}
