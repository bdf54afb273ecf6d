import { GatewayError } from '@switchyard/core';
import type { AccountStore } from './account-store.js';
import { LimitGroupRegistry, toGroupView } from './limit-group-registry.js';
import type { Team } from './team.js';

/** 404 for an unknown team id, naming `param`. */
export function teamNotFoundError(id: string, param = 'id'): GatewayError {
  return new GatewayError({
    status: 404,
    type: 'invalid_request_error',
    code: 'team_not_found',
    param,
    message: `No team with id '${id}'.`,
  });
}

/** A team as the admin API shows it: every optional limit present (null when unset). */
export function toTeamView(team: Team): Team {
  return { ...toGroupView(team), organization_id: team.organization_id ?? null };
}

/**
 * The teams, held in memory (a call's admission reads its key's team without a store query) and written through to
 * the store. `announce` tells other replicas about a change (see `KeyChangeFeed`, as `team:<id>`); `check` throws for
 * a body naming an unknown organisation (404 `organization_not_found`). Deleting a team throws 409 `team_has_keys`
 * while active keys name it (move them to another team with PATCH `team_id`, or revoke them, first).
 */
export class TeamRegistry extends LimitGroupRegistry<Team> {
  constructor(
    store: AccountStore,
    announce: (id: string) => Promise<void>,
    check: (input: Partial<Team>) => void = () => {},
  ) {
    super({
      idPrefix: 'team',
      table: {
        list: () => store.listTeams(),
        get: (id) => store.getTeam(id),
        insert: (team) => store.insertTeam(team),
        update: (team) => store.updateTeam(team),
        delete: (id) => store.deleteTeam(id),
      },
      extra: (input) => ({ organization_id: input.organization_id ?? null }),
      check,
      hasMembers: (id, members) =>
        new GatewayError({
          status: 409,
          type: 'invalid_request_error',
          code: 'team_has_keys',
          param: 'id',
          message: `Team '${id}' still has ${members} active key(s): move them to another team (PATCH team_id) or revoke them first.`,
        }),
      announce,
    });
  }

  override list(): Team[] {
    return super.list().map(toTeamView);
  }
}
