import { randomUUID } from 'node:crypto';
import type { Admission, CallEstimate, ScopeReservation } from './admission.js';
import { budgetWindow } from './budget-window.js';
import { budgetRefusal } from './budget-refusal.js';
import { type CallParties, type CallScope, callScopes } from './call-scopes.js';
import type { KeyState } from './key-state.js';
import type { LedgerSeeds } from './ledger-seeds.js';
import type { LimitDecision, Limiter, LimitRequest } from './limiter.js';
import { matchesModelGlob } from './match-model-glob.js';
import { modelNotAllowedError, rateLimitError, rateLimitHeaders } from './rate-limit-error.js';
import type { Organization } from './organization.js';
import type { Team } from './team.js';

/** What {@link admitCall} needs from `Accounts`. */
export interface AdmissionContext {
  limiter: Limiter;
  seeds: LedgerSeeds;
  /** Reset time zone of budget periods (IANA). */
  timeZone: string;
}

/** The 429 for a refusal by `decision` of the key's own limits (`scope` undefined) or of one of its scopes. */
function refusal(
  decision: Extract<LimitDecision, { ok: false }>,
  own: CallScope['limits'],
  detail: CallEstimate,
  headers: Record<string, string>,
  scope?: CallScope,
) {
  const limits = scope?.limits ?? own;
  const whose = scope ? `this ${scope.what}'s ` : '';
  if (decision.reason === 'budget')
    return budgetRefusal(limits, decision.budget, detail, headers, scope?.what ?? 'key');
  if (decision.reason === 'concurrency') {
    const who = scope ? `this ${scope.what}` : 'this key';
    return rateLimitError(
      `Too many concurrent requests: ${who} allows ${limits.concurrency_limit} at a time. Retry when one has finished.`,
      'concurrency_limit_exceeded',
      { ...headers, 'retry-after': '1' },
      'concurrency',
    );
  }
  const retryAfter = 'retryAfterMs' in decision ? decision.retryAfterMs : 1000;
  const what =
    decision.reason === 'requests' ? `${whose}requests: ${limits.rpm_limit}` : `${whose}tokens: ${limits.tpm_limit}`;
  return rateLimitError(
    `Rate limit reached for ${what} per minute.`,
    'rate_limit_exceeded',
    { ...headers, 'retry-after': String(Math.max(1, Math.ceil(retryAfter / 1000))) },
    decision.reason === 'requests' ? 'rpm' : 'tpm',
  );
}

type SeedDecision = Extract<LimitDecision, { reason: 'seed' }>;

/** True when the limiter asks for the ledger (see `LimitDecision`). */
const isSeed = (decision: LimitDecision): decision is SeedDecision => !decision.ok && decision.reason === 'seed';

/**
 * After the limiter's first answer `first` asked for the ledger (a window's first call): gives it what it asks for, a
 * budget window's spend (the key's, from `windowStart`, or a scope's), or the key's or a scope's use in the last minute
 * (a Redis that came back empty, or is away), at most once each, and asks again. Throws when the limiter asks twice for
 * the same thing or for a budget the call does not have.
 */
async function seedAndAcquire(
  context: AdmissionContext,
  request: LimitRequest,
  scopes: readonly CallScope[],
  windowStart: number | undefined,
  first: SeedDecision,
): Promise<Exclude<LimitDecision, SeedDecision>> {
  const keyId = request.keyId;
  let decision: LimitDecision = first;
  const asked = new Set<string>();
  while (isSeed(decision)) {
    const what = `${decision.what === 'recent' ? 'recent' : 'spend'}:${decision.scope ?? ''}`;
    if (asked.has(what)) throw new Error(`The limiter asked twice for the ledger (${what}) of key ${keyId}.`);
    asked.add(what);
    const id = decision.scope;
    const scope = id === undefined ? undefined : scopes.find((s) => s.scope.id === id);
    if (id !== undefined && !scope) throw new Error(`The limiter asked about an unknown scope '${what}'.`);
    if (decision.what === 'recent' && scope) scope.scope.recent = await context.seeds.recentUseWhere(scope.ledger);
    else if (decision.what === 'recent') request.recent = await context.seeds.recentUse(keyId);
    else if (scope === undefined) {
      if (!request.budget || windowStart === undefined)
        throw new Error(`The limiter asked for the spend of key ${keyId}, which has no budget.`);
      request.budget.seedUsd = await context.seeds.spendSince(keyId, windowStart);
    } else {
      if (!scope.scope.budget)
        throw new Error(`The limiter asked for the spend of scope '${what}', which has no budget.`);
      scope.scope.budget.seedUsd = await context.seeds.spendWhere({ ...scope.ledger, from: scope.windowStart });
    }
    decision = await context.limiter.acquire(request);
  }
  return decision;
}

/** What each scope of an admitted call reserved (nothing when the limiter could not count: `reserved` false). */
function scopeReservations(
  scopes: readonly CallScope[],
  reserved: boolean,
  tokens: number,
  costUsd: number,
): ScopeReservation[] {
  return scopes.map(({ scope, what, party }) => ({
    id: scope.id,
    what,
    ...(party && { party }),
    tpm: scope.tpm,
    reservedTokens: scope.tpm && reserved ? Math.min(tokens, scope.tpm) : 0,
    reservedUsd: scope.budget && reserved ? costUsd : 0,
    ...(scope.budget && { budget: { window: scope.budget.window, limitUsd: scope.budget.limitUsd } }),
  }));
}

/** A key's team and that team's organisation, whose allow-lists and limits apply to its calls too. */
export interface KeyGroups {
  team?: Team;
  organization?: Organization;
}

/**
 * Admits one call of a virtual key (see `Accounts.admit`): its allow-list, its team's and its organisation's, then its
 * own limits and those of its scopes (team, organisation, end user, session; see {@link callScopes}) in one atomic
 * {@link Limiter} step. Budget
 * windows the limiter does not hold yet are seeded from the ledger (at most once each). Throws the 403 or 429 of the
 * first limit that refuses.
 */
export function admitCall(
  context: AdmissionContext,
  state: KeyState,
  groups: KeyGroups,
  model: string,
  detail: CallEstimate,
  limits: 'all' | 'requests',
  parties: CallParties,
): Promise<Admission> {
  let call: AdmittingCall;
  try {
    call = admittingCall(context, state, groups, model, detail, limits, parties);
  } catch (error) {
    return Promise.reject(error);
  }
  // Every call but a window's first is decided by the first answer; only a `seed` answer goes to the ledger. One
  // `then`, no async frame (an admission is on every call's path).
  return context.limiter
    .acquire(call.request)
    .then((first) =>
      isSeed(first)
        ? seedAndAcquire(context, call.request, call.scopes, call.window?.start, first).then((decision) =>
            admitted(call, decision),
          )
        : admitted(call, first),
    );
}

/** A call of {@link admitCall} on its way to the limiter: what it asks for, and what its answer is read with. */
interface AdmittingCall {
  state: KeyState;
  groups: KeyGroups;
  detail: CallEstimate;
  limits: 'all' | 'requests';
  parties: CallParties;
  window: ReturnType<typeof budgetWindow> | undefined;
  scopes: CallScope[];
  slot: string | undefined;
  request: LimitRequest;
}

/** Checks the allow-lists (throws 403) and makes what {@link admitCall} asks the limiter. */
function admittingCall(
  context: AdmissionContext,
  state: KeyState,
  groups: KeyGroups,
  model: string,
  detail: CallEstimate,
  limits: 'all' | 'requests',
  parties: CallParties,
): AdmittingCall {
  const { key } = state;
  const { team, organization } = groups;
  const { tokens, costUsd } = detail;
  if (key.models && !matchesModelGlob(model, key.models)) throw modelNotAllowedError(model);
  if (team?.models && !matchesModelGlob(model, team.models)) throw modelNotAllowedError(model);
  if (organization?.models && !matchesModelGlob(model, organization.models)) throw modelNotAllowedError(model);
  const now = Date.now();
  const window =
    key.budget_usd !== null && limits === 'all'
      ? budgetWindow(key.budget_period, now, context.timeZone, key.budget_started_at)
      : undefined;
  const scopes = callScopes(
    key,
    team,
    parties,
    { timeZone: context.timeZone, now, requestsOnly: limits === 'requests', costUsd },
    organization,
  );
  // A concurrency slot (a UUID) is named only when the key or a scope has a concurrency limit.
  const slot = key.concurrency_limit || scopes.some((s) => s.scope.concurrency) ? randomUUID() : undefined;
  const request: LimitRequest = {
    keyId: key.id,
    rpm: key.rpm_limit,
    tpm: limits === 'all' ? key.tpm_limit : null,
    tokens,
    concurrency: key.concurrency_limit && slot ? { limit: key.concurrency_limit, slot } : null,
    budget:
      window && key.budget_usd !== null ? { limitUsd: key.budget_usd, window: window.id, reserveUsd: costUsd } : null,
    ...(scopes.length > 0 && { scopes: scopes.map((s) => s.scope), slot }),
  };
  return { state, groups, detail, limits, parties, window, scopes, slot, request };
}

/** The admission of `call` from the limiter's `decision`; throws the 429 of the limit that refused. */
function admitted(call: AdmittingCall, decision: Exclude<LimitDecision, SeedDecision>): Admission {
  const { key } = call.state;
  const { scopes, request, detail, limits } = call;
  const { team, organization } = call.groups;
  const { tokens, costUsd } = detail;
  const headers = rateLimitHeaders(key, decision.state);
  if (!decision.ok) {
    const id = decision.scope;
    const scope = id === undefined ? undefined : scopes.find((s) => s.scope.id === id);
    const own = {
      rpm_limit: key.rpm_limit,
      tpm_limit: key.tpm_limit,
      concurrency_limit: key.concurrency_limit ?? null,
      budget_usd: key.budget_usd,
      budget_period: key.budget_period,
    };
    throw refusal(decision, own, detail, headers, scope);
  }
  const reserved = !decision.unreserved;
  // A key with no team and a call with no end user or session (the common call) has no scopes: nothing is mapped.
  const reservations = scopes.length > 0 ? scopeReservations(scopes, reserved, tokens, costUsd) : undefined;
  const slotScopes = scopes.length > 0 ? scopes.filter((s) => s.scope.concurrency).map((s) => s.scope.id) : undefined;
  const holdsSlot = reserved && (request.concurrency || (slotScopes !== undefined && slotScopes.length > 0));
  return {
    local: decision.local,
    reservedTokens: key.tpm_limit && reserved && limits === 'all' ? Math.min(tokens, key.tpm_limit) : 0,
    reservedUsd: request.budget && reserved ? costUsd : 0,
    budgetWindow: request.budget ? call.window?.id : undefined,
    slot: holdsSlot ? call.slot : undefined,
    ...(holdsSlot && slotScopes && slotScopes.length > 0 && { slotScopes }),
    headers,
    ...(reservations && { scopes: reservations }),
    ...(team && { teamId: team.id }),
    ...(organization && { organizationId: organization.id }),
    ...(call.parties.endUser && { endUser: call.parties.endUser }),
  };
}
