import type { Response } from 'express';
import { forbidden } from './admin-access-policy.js';
import { adminIdentity } from './admin-identity.js';

/** The teams the caller is held to: a `team_admin`'s teams, or undefined for a role that sees every team. */
export function teamScope(res: Response): readonly string[] | undefined {
  const identity = adminIdentity(res);
  return identity.role === 'team_admin' ? identity.teams : undefined;
}

/** The items of a list the caller may see (`teamOf` gives an item's team id; all of them outside a team scope). */
export function visibleToCaller<T>(res: Response, items: readonly T[], teamOf: (item: T) => string | null | undefined) {
  const teams = teamScope(res);
  return teams ? items.filter((item) => teams.includes(teamOf(item) ?? '')) : [...items];
}

/**
 * Checks a `team_id` a body gives a key (`undefined` when the body does not set it): a `team_admin` must name one of
 * its teams; `required` when creating a key (a `team_admin`'s keys always belong to its teams). Throws 403.
 */
export function assertTeamAllowed(res: Response, teamId: string | null | undefined, required: boolean): void {
  const teams = teamScope(res);
  if (!teams || (teamId === undefined && !required)) return;
  if (!teamId || !teams.includes(teamId))
    throw forbidden(`A team admin's keys must belong to one of its teams (${teams.join(', ')}): set team_id.`);
}
