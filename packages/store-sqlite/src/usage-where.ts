import type { UsageFilter } from '@switchyard/accounts';

/**
 * The SQL conditions (named parameters) of a ledger filter: key, model, team, organisation, end user, session, `from` (inclusive)
 * and `to` (exclusive, unix ms). `add` appends further conditions; empty values are ignored.
 */
export function usageWhere(filter: UsageFilter): {
  where: string[];
  params: Record<string, unknown>;
  add: (clause: string, name: string, value: unknown) => void;
} {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const add = (clause: string, name: string, value: unknown) => {
    if (value === undefined || value === '') return;
    where.push(clause);
    params[name] = value;
  };
  add('key_id = @key_id', 'key_id', filter.key_id);
  add('model = @model', 'model', filter.model);
  add('team_id = @team_id', 'team_id', filter.team_id);
  add('organization_id = @organization_id', 'organization_id', filter.organization_id);
  add('end_user = @end_user', 'end_user', filter.end_user);
  add('session_id = @session_id', 'session_id', filter.session_id);
  add('created_at >= @from', 'from', filter.from);
  add('created_at < @to', 'to', filter.to);
  return { where, params, add };
}
