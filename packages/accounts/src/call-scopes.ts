import { budgetWindow } from './budget-window.js';
import type { LimitFields } from './limit-fields.js';
import type { LimitGroup } from './limit-group-registry.js';
import type { LimitBudget, LimitScope } from './limiter.js';
import type { Organization } from './organization.js';
import type { Team } from './team.js';
import type { UsageFilter } from './usage-row.js';
import type { VirtualKey } from './virtual-key.js';

/** Who a call is for, beyond its key: its end user (OpenAI's `user` or `safety_identifier`) and agent session. */
export interface CallParties {
  /** At most 128 characters. */
  endUser?: string;
  /** At most 128 characters. */
  session?: string;
}

/** One scope of a call and what a refusal and a seed need to know about it. */
export interface CallScope {
  scope: LimitScope;
  /** Whose limit it is, for messages: `team`, `organization`, `end user`, `session`. */
  what: 'team' | 'organization' | 'end user' | 'session';
  /** The end user or session id (for `end user` and `session`). */
  party?: string;
  /** The limits it enforces, as they appear in messages. */
  limits: {
    rpm_limit: number | null;
    tpm_limit: number | null;
    concurrency_limit: number | null;
    budget_usd: number | null;
    budget_period: string;
  };
  /** Ledger rows that count against its budget (for a seed), without the window's start. */
  ledger: UsageFilter;
  /** Start of its budget window, unix ms. */
  windowStart: number;
}

/** Options of {@link callScopes}. */
export interface CallScopeOptions {
  /** Reset time zone of budget periods (IANA). */
  timeZone: string;
  now: number;
  /** Only rpm and concurrency (a call that costs nothing): no tpm, no budgets. */
  requestsOnly: boolean;
  /** The call's cost estimate, USD, and token estimate. */
  costUsd: number;
}

function budget(
  limitUsd: number | null | undefined,
  window: { id: string },
  costUsd: number,
  requestsOnly: boolean,
): LimitBudget | null {
  return limitUsd != null && !requestsOnly ? { limitUsd, window: window.id, reserveUsd: costUsd } : null;
}

/**
 * The end-user and session scopes that `owner` (a key, team or organisation, `ownerId` as `key:<id>`, `team:<id>` or
 * `organization:<id>`) sets.
 */
function partyScopes(
  owner: LimitFields,
  ownerId: string,
  ledger: UsageFilter,
  parties: CallParties,
  options: CallScopeOptions,
): CallScope[] {
  const scopes: CallScope[] = [];
  if (parties.endUser && (owner.end_user_budget_usd != null || owner.end_user_rpm_limit != null)) {
    const period = owner.end_user_budget_period ?? 'total';
    const window = budgetWindow(period, options.now, options.timeZone);
    scopes.push({
      scope: {
        id: `${ownerId}:user:${parties.endUser}`,
        rpm: owner.end_user_rpm_limit ?? null,
        tpm: null,
        concurrency: null,
        budget: budget(owner.end_user_budget_usd, window, options.costUsd, options.requestsOnly),
        evictable: true,
      },
      what: 'end user',
      party: parties.endUser,
      limits: {
        rpm_limit: owner.end_user_rpm_limit ?? null,
        tpm_limit: null,
        concurrency_limit: null,
        budget_usd: owner.end_user_budget_usd ?? null,
        budget_period: period,
      },
      ledger: { ...ledger, end_user: parties.endUser },
      windowStart: window.start,
    });
  }
  if (parties.session && (owner.session_budget_usd != null || owner.session_rpm_limit != null)) {
    const window = budgetWindow('total', options.now, options.timeZone);
    scopes.push({
      scope: {
        id: `${ownerId}:session:${parties.session}`,
        rpm: owner.session_rpm_limit ?? null,
        tpm: null,
        concurrency: null,
        budget: budget(owner.session_budget_usd, window, options.costUsd, options.requestsOnly),
        evictable: true,
      },
      what: 'session',
      party: parties.session,
      limits: {
        rpm_limit: owner.session_rpm_limit ?? null,
        tpm_limit: null,
        concurrency_limit: null,
        budget_usd: owner.session_budget_usd ?? null,
        budget_period: 'session',
      },
      ledger: { ...ledger, session_id: parties.session },
      windowStart: window.start,
    });
  }
  return scopes;
}

/** The scope of a team's or organisation's own limits (`team:<id>`, `organization:<id>`), or none when it has none. */
function groupScope(
  what: 'team' | 'organization',
  group: LimitGroup,
  ledger: UsageFilter,
  options: CallScopeOptions,
): CallScope | undefined {
  const limited =
    group.rpm_limit ||
    group.tpm_limit ||
    group.concurrency_limit ||
    (group.budget_usd !== null && !options.requestsOnly);
  if (!limited) return undefined;
  const window = budgetWindow(group.budget_period, options.now, options.timeZone, group.budget_started_at);
  return {
    scope: {
      id: `${what}:${group.id}`,
      rpm: group.rpm_limit,
      tpm: options.requestsOnly ? null : group.tpm_limit,
      concurrency: group.concurrency_limit ?? null,
      budget: budget(group.budget_usd, window, options.costUsd, options.requestsOnly),
    },
    what,
    limits: {
      rpm_limit: group.rpm_limit,
      tpm_limit: group.tpm_limit,
      concurrency_limit: group.concurrency_limit ?? null,
      budget_usd: group.budget_usd,
      budget_period: group.budget_period,
    },
    ledger,
    windowStart: window.start,
  };
}

/**
 * The scopes a call of `key` is checked against besides the key's own counters: its team's limits (`team:<id>`), its
 * team's organisation's (`organization:<id>`), and the end-user and session limits set on the key
 * (`key:<id>:user:<end user>`, `key:<id>:session:<session>`), on its team (`team:<id>:user:…`, `team:<id>:session:…`)
 * and on the organisation (`organization:<id>:user:…`, `organization:<id>:session:…`) for the call's
 * {@link CallParties}. Scopes without any limit are left out.
 */
export function callScopes(
  key: VirtualKey,
  team: Team | undefined,
  parties: CallParties,
  options: CallScopeOptions,
  organization?: Organization,
): CallScope[] {
  // A key with no team and a call with no end user or session (the common call): no scope, nothing else made.
  if (!team && !parties.endUser && !parties.session) return [];
  const scopes = partyScopes(key, `key:${key.id}`, { key_id: key.id }, parties, options);
  if (!team) return scopes;
  const groups: CallScope[] = [];
  const teamScope = groupScope('team', team, { team_id: team.id }, options);
  if (teamScope) groups.push(teamScope);
  const orgLedger = organization && { organization_id: organization.id };
  const orgScope = organization && orgLedger && groupScope('organization', organization, orgLedger, options);
  if (orgScope) groups.push(orgScope);
  scopes.push(...partyScopes(team, `team:${team.id}`, { team_id: team.id }, parties, options));
  if (organization && orgLedger)
    scopes.push(...partyScopes(organization, `organization:${organization.id}`, orgLedger, parties, options));
  return [...groups, ...scopes];
}
