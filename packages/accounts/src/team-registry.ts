import { randomUUID } from 'node:crypto';
import { GatewayError } from '@switchyard/core';
import type { AccountStore } from './account-store.js';
import { applyLimitChanges, optionalLimits } from './limit-fields.js';
import type { Team } from './team.js';
import type { CreateTeamInput, UpdateTeamInput } from './team-input-schema.js';

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
  return { ...team, ...optionalLimits(team) };
}

/**
 * The teams, held in memory (a call's admission reads its key's team without a store query) and written through to
 * the store. `announce` tells other replicas about a change (see `KeyChangeFeed`, as `team:<id>`).
 */
export class TeamRegistry {
  readonly #teams = new Map<string, Team>();

  constructor(
    private readonly store: AccountStore,
    private readonly announce: (id: string) => Promise<void>,
  ) {}

  /** Loads every team from the store (at startup, or when changes may have been missed). */
  async load(): Promise<void> {
    const teams = await this.store.listTeams();
    this.#teams.clear();
    for (const team of teams) this.#teams.set(team.id, team);
  }

  /** Reloads one team after another replica changed or deleted it. */
  async reload(id: string): Promise<void> {
    const team = await this.store.getTeam(id);
    if (team) this.#teams.set(id, team);
    else this.#teams.delete(id);
  }

  /** The team, or undefined. */
  get(id: string | null | undefined): Team | undefined {
    return id ? this.#teams.get(id) : undefined;
  }

  /** Every team, in creation order. */
  list(): Team[] {
    return [...this.#teams.values()].map(toTeamView);
  }

  /** Creates a team. */
  async create(input: CreateTeamInput): Promise<Team> {
    const team: Team = {
      id: `team_${randomUUID().replaceAll('-', '')}`,
      name: input.name,
      models: input.models ?? null,
      rpm_limit: input.rpm_limit ?? null,
      tpm_limit: input.tpm_limit ?? null,
      concurrency_limit: input.concurrency_limit ?? null,
      budget_usd: input.budget_usd ?? null,
      budget_period: input.budget_period ?? 'total',
      budget_started_at: null,
      end_user_budget_usd: input.end_user_budget_usd ?? null,
      end_user_budget_period: input.end_user_budget_period ?? null,
      end_user_rpm_limit: input.end_user_rpm_limit ?? null,
      session_budget_usd: input.session_budget_usd ?? null,
      session_rpm_limit: input.session_rpm_limit ?? null,
      metadata: input.metadata ?? null,
      created_at: new Date().toISOString(),
    };
    await this.store.insertTeam(team);
    this.#teams.set(team.id, team);
    await this.announce(team.id);
    return toTeamView(team);
  }

  /** Changes a team's fields; limits apply at once. Undefined when there is no such team. */
  async update(id: string, input: UpdateTeamInput): Promise<Team | undefined> {
    const current = this.#teams.get(id);
    if (!current) return undefined;
    const team = applyLimitChanges(current, input as Partial<Team>);
    await this.store.updateTeam(team);
    this.#teams.set(id, team);
    await this.announce(id);
    return toTeamView(team);
  }

  /**
   * Deletes a team. Throws 409 `team_has_keys` while active keys name it (move or revoke them first: deleting it under
   * them would lift its limits from their calls). Undefined when there is no such team.
   */
  async delete(id: string, activeKeys: number): Promise<Team | undefined> {
    const team = this.#teams.get(id);
    if (!team) return undefined;
    if (activeKeys > 0) {
      throw new GatewayError({
        status: 409,
        type: 'invalid_request_error',
        code: 'team_has_keys',
        param: 'id',
        message: `Team '${id}' still has ${activeKeys} active key(s): move them to another team (PATCH team_id) or revoke them first.`,
      });
    }
    await this.store.deleteTeam(id);
    this.#teams.delete(id);
    await this.announce(id);
    return toTeamView(team);
  }
}
