import { type Accounts, createTeamInputSchema, teamNotFoundError, updateTeamInputSchema } from '@switchyard/accounts';
import { validateRequest } from '@switchyard/core';
import type { Request, Router } from 'express';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { withWindowSpend } from './keys-spend.js';
import { auditValue, recordAdminChange } from './record-admin-change.js';

/**
 * The teams of the admin API: `POST /teams` (201), `GET /teams` (each with `spend_usd` in its current budget window),
 * `GET /teams/:id`, `PATCH /teams/:id` (limits apply at once), `DELETE /teams/:id` (409 `team_has_keys` while active
 * keys name it). Bodies take the limit fields of keys (see `createTeamInputSchema`); unknown ids answer 404
 * `team_not_found`. Each change is recorded in the audit log (`team.create`, `team.update`, `team.delete`).
 */
export function addTeamsRoutes(router: Router, accounts: Accounts): void {
  router.post('/teams', ...parseJsonBody('1mb'), async (req, res) => {
    const team = await accounts.teams.create(validateRequest(createTeamInputSchema, req.body));
    await recordAdminChange(accounts, req, res, { action: 'team.create', target: team.id, after: auditValue(team) });
    res.status(201).json(team);
  });
  router.get('/teams', async (_req, res) => {
    res.json({ object: 'list', data: await withWindowSpend(accounts, accounts.teams.list(), 'team') });
  });
  router.get('/teams/:id', async (req: Request<{ id: string }>, res) => {
    const team = accounts.teams.list().find((t) => t.id === req.params.id);
    if (!team) throw teamNotFoundError(req.params.id);
    const [withSpend] = await withWindowSpend(accounts, [team], 'team');
    res.json(withSpend);
  });
  router.patch('/teams/:id', ...parseJsonBody('1mb'), async (req: Request<{ id: string }>, res) => {
    const input = validateRequest(updateTeamInputSchema, req.body);
    const before = accounts.teams.list().find((t) => t.id === req.params.id);
    const team = await accounts.teams.update(req.params.id, input);
    if (!team) throw teamNotFoundError(req.params.id);
    await recordAdminChange(accounts, req, res, {
      action: 'team.update',
      target: team.id,
      before: auditValue(before),
      after: auditValue(team),
    });
    res.json(team);
  });
  router.delete('/teams/:id', async (req: Request<{ id: string }>, res) => {
    const team = await accounts.deleteTeam(req.params.id);
    if (!team) throw teamNotFoundError(req.params.id);
    await recordAdminChange(accounts, req, res, { action: 'team.delete', target: team.id, before: auditValue(team) });
    res.json({ ...team, deleted: true });
  });
}
