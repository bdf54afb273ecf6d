import type { Accounts, LimitGroup } from '@switchyard/accounts';
import { type GatewayError, validateRequest } from '@switchyard/core';
import type { Request, Router } from 'express';
import type { z } from 'zod';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { withWindowSpend } from './keys-spend.js';
import { auditValue, recordAdminChange } from './record-admin-change.js';
import { visibleToCaller } from './team-scope.js';

/** One kind of group the admin API manages (teams, organisations). */
export interface GroupRoutesKind<T extends LimitGroup> {
  /** The collection's path, e.g. `/teams`. */
  path: string;
  /** The audit actions' prefix and the usage grouping, e.g. `team` (`team.create`, `group_by=team`). */
  name: 'team' | 'organization';
  registry: {
    list(): T[];
    create(input: Partial<T> & { name: string }): Promise<T>;
    update(id: string, input: Partial<T>): Promise<T | undefined>;
  };
  /** Deletes one; undefined when unknown; throws the kind's 409 while it has members. */
  remove(id: string): Promise<T | undefined>;
  createSchema: z.ZodType<Partial<T> & { name: string }>;
  updateSchema: z.ZodType<Partial<T>>;
  notFound(id: string): GatewayError;
}

/**
 * The admin routes of one kind of group: `POST <path>` (201), `GET <path>` (each with `spend_usd` in its current
 * budget window), `GET <path>/:id`, `PATCH <path>/:id` (limits apply at once), `DELETE <path>/:id`. Unknown ids
 * answer the kind's 404. Each change is recorded in the audit log (`<name>.create`, `<name>.update`, `<name>.delete`)
 * with the group before and after.
 */
export function addGroupRoutes<T extends LimitGroup>(router: Router, accounts: Accounts, kind: GroupRoutesKind<T>) {
  const { path, name, registry } = kind;
  const find = (id: string) => registry.list().find((g) => g.id === id);
  router.post(path, ...parseJsonBody('1mb'), async (req, res) => {
    const group = await registry.create(validateRequest(kind.createSchema, req.body));
    await recordAdminChange(accounts, req, res, {
      action: `${name}.create`,
      target: group.id,
      after: auditValue(group),
    });
    res.status(201).json(group);
  });
  router.get(path, async (_req, res) => {
    // A team admin lists its own teams only (organisations are not open to it at all: see ADMIN_ROUTE_RULES).
    const groups = name === 'team' ? visibleToCaller(res, registry.list(), (g) => g.id) : registry.list();
    res.json({ object: 'list', data: await withWindowSpend(accounts, groups, name) });
  });
  router.get(`${path}/:id`, async (req: Request<{ id: string }>, res) => {
    const group = find(req.params.id);
    if (!group) throw kind.notFound(req.params.id);
    const [withSpend] = await withWindowSpend(accounts, [group], name);
    res.json(withSpend);
  });
  router.patch(`${path}/:id`, ...parseJsonBody('1mb'), async (req: Request<{ id: string }>, res) => {
    const input = validateRequest(kind.updateSchema, req.body);
    const before = find(req.params.id);
    const group = await registry.update(req.params.id, input);
    if (!group) throw kind.notFound(req.params.id);
    await recordAdminChange(accounts, req, res, {
      action: `${name}.update`,
      target: group.id,
      before: auditValue(before),
      after: auditValue(group),
    });
    res.json(group);
  });
  router.delete(`${path}/:id`, async (req: Request<{ id: string }>, res) => {
    const group = await kind.remove(req.params.id);
    if (!group) throw kind.notFound(req.params.id);
    await recordAdminChange(accounts, req, res, {
      action: `${name}.delete`,
      target: group.id,
      before: auditValue(group),
    });
    res.json({ ...group, deleted: true });
  });
}
