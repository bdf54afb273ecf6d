import type { UsageFilter, UsageGroupBy } from '@switchyard/accounts';
import { invalidRequestError } from '@switchyard/core';
import type { Request } from 'express';

/** Reads a time parameter (ISO-8601 or unix ms) as unix ms; undefined when absent. Throws 400 naming `param`. */
export function parseTimeParam(value: unknown, param: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const text = String(value);
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (Number.isNaN(ms))
    throw invalidRequestError(`Invalid '${param}': expected an ISO-8601 time or unix milliseconds.`, param);
  return ms;
}

/**
 * Reads `?key=&team=&organization=&end_user=&session=&model=&from=&to=&group_by=…` (times as ISO-8601 or unix ms; `group_by` one of
 * `allowedGroups`). Throws 400 naming a bad one.
 */
export function parseUsageQuery(
  req: Request,
  allowedGroups: readonly UsageGroupBy[],
): { filter: UsageFilter; groupBy?: UsageGroupBy } {
  const q = req.query as Record<string, unknown>;
  const groupBy = q.group_by === undefined || q.group_by === '' ? undefined : String(q.group_by);
  if (groupBy !== undefined && !allowedGroups.includes(groupBy as UsageGroupBy)) {
    throw invalidRequestError(`Invalid 'group_by': expected one of ${allowedGroups.join(', ')}.`, 'group_by');
  }
  const filter: UsageFilter = { from: parseTimeParam(q.from, 'from'), to: parseTimeParam(q.to, 'to') };
  if (typeof q.key === 'string' && q.key) filter.key_id = q.key;
  if (typeof q.model === 'string' && q.model) filter.model = q.model;
  if (typeof q.team === 'string' && q.team) filter.team_id = q.team;
  if (typeof q.organization === 'string' && q.organization) filter.organization_id = q.organization;
  if (typeof q.end_user === 'string' && q.end_user) filter.end_user = q.end_user;
  if (typeof q.session === 'string' && q.session) filter.session_id = q.session;
  return { filter, groupBy: groupBy as UsageGroupBy | undefined };
}
