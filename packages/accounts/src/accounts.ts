import { timingSafeEqual } from 'node:crypto';
import { authenticationError, type CallAccounting, type GatewayError, KeyRing } from '@switchyard/core';
import type { AccountStore } from './account-store.js';
import type { AccountsOptions, BudgetSettledEvent } from './accounts-options.js';
import type { AdminSessionStore } from './admin-session.js';
import { KeyAccounting } from './key-accounting.js';
import type { KeyChangeFeed } from './key-change-feed.js';
import { KeyAdmin } from './key-admin.js';
import { KeyRegistry } from './key-registry.js';
import { KeyStoreLookup } from './key-store-lookup.js';
import { bearerToken, hashSecret as hash, secretOf, VIRTUAL_KEY, virtualDigest } from './key-secret.js';
import type { KeyState } from './key-state.js';
import { LedgerSeeds } from './ledger-seeds.js';
import { limitSettlement } from './call-settlement.js';
import { ownerColumns } from './settlement-booking.js';
import type { Limiter, SettledBudget } from './limiter.js';
import { budgetRefusal } from './budget-refusal.js';
import { isBudgetSpent } from './budget-spent.js';
import { MemoryLimiter } from './memory-limiter.js';
import type { Admission, CallEstimate } from './admission.js';
import { AuditLog } from './audit-log.js';
import type { Principal } from './principal.js';
import { type AdmissionContext, admitCall, type KeyGroups } from './call-admission.js';
import type { CallParties } from './call-scopes.js';
import { warmTokenizer } from './estimate-tokens.js';
import { OrganizationRegistry, organizationNotFoundError } from './organization-registry.js';
import { TeamRegistry } from './team-registry.js';
import { UsageLedger } from './usage-ledger.js';
import type { UsageQuery } from './usage-query.js';
import type { UsageFilter, UsageGroupBy, UsageRow, UsageTotals } from './usage-row.js';
import type { VirtualKey } from './virtual-key.js';

export type { Admission, CallEstimate } from './admission.js';

const ignore = () => {};

export type { Principal } from './principal.js';
export type { AccountsOptions, BudgetSettledEvent } from './accounts-options.js';

/**
 * The gateway's own accounts: virtual keys (`sk-sy-…`, stored as SHA-256 hashes, held in memory and compared in
 * constant time), model allow-lists, requests- and tokens-per-minute limits, budgets in USD per day, month or in
 * total, and the usage ledger (batched writes). Limits are counted by a {@link Limiter}: in this process by default.
 * {@link Accounts.accounting} plugs all of it into core's `createGateway({ accounting })`.
 */
export class Accounts {
  readonly #keys = new KeyRegistry();
  readonly #static: KeyRing;
  readonly #master?: Buffer;
  readonly #onError: (error: unknown) => void;
  readonly #onBudgetSettled?: (event: BudgetSettledEvent) => void;
  readonly ledger: UsageLedger;
  readonly limiter: Limiter;
  /** The audit log of admin changes and sign-ins (in the same store). */
  readonly audit: AuditLog;
  /** The teams (see {@link TeamRegistry}). */
  readonly teams: TeamRegistry;
  /** The organisations above teams (see {@link OrganizationRegistry}). */
  readonly organizations: OrganizationRegistry;
  /** The virtual keys' administration: create, list, get, update, rotate, revoke (see {@link KeyAdmin}). */
  readonly keys: KeyAdmin;
  /** The console's signed-in sessions (in the same store, so shared by replicas on a shared store). */
  readonly adminSessions: AdminSessionStore;
  /** Time zone in which `day`, `week` and `month` budgets reset (IANA name). */
  readonly budgetTimeZone: string;
  /** Admission and metering for `createGateway({ accounting })`. */
  readonly accounting: CallAccounting;

  private constructor(
    private readonly store: AccountStore,
    options: AccountsOptions,
  ) {
    this.#static = new KeyRing(options.staticKeys);
    this.#master = options.masterKey ? Buffer.from(hash(options.masterKey), 'hex') : undefined;
    this.#onError = options.onError ?? (() => {});
    this.#onBudgetSettled = options.onBudgetSettled;
    this.ledger = new UsageLedger(store, {
      flushMs: options.ledgerFlushMs,
      maxBuffered: options.ledgerMaxBuffered,
      onError: options.onError,
      onDropped: options.onLedgerDropped,
    });
    this.limiter = options.limiter ?? new MemoryLimiter();
    this.audit = new AuditLog(store, { onError: options.onAuditError ?? options.onError });
    this.adminSessions = store;
    this.#ledgerSeeds = new LedgerSeeds(store, this.ledger);
    this.accounting = new KeyAccounting(this);
    this.#keyChanges = options.keyChanges;
    this.#lookups = new KeyStoreLookup(store, this.#keys, this.#onError, options.keyLookups);
    this.budgetTimeZone = options.budgetTimeZone ?? 'UTC';
    this.#admission = { limiter: this.limiter, seeds: this.#ledgerSeeds, timeZone: this.budgetTimeZone };
    this.organizations = new OrganizationRegistry(store, (id) => this.#announce(`organization:${id}`));
    this.teams = new TeamRegistry(
      store,
      (id) => this.#announce(`team:${id}`),
      ({ organization_id: org }) => {
        if (org && !this.organizations.get(org)) throw organizationNotFoundError(org, 'organization_id');
      },
    );
    this.keys = new KeyAdmin({ store, keys: this.#keys, teams: this.teams, announce: (id) => this.#announce(id) });
    this.#keyChanges?.subscribe((id) => void this.#reload(id).catch(this.#onError));
  }

  readonly #keyChanges?: KeyChangeFeed;
  readonly #lookups: KeyStoreLookup;
  readonly #ledgerSeeds: LedgerSeeds;
  /** What admissions need (see {@link admitCall}), made once. */
  readonly #admission: AdmissionContext;

  /**
   * Reloads one key from the store (or every key, team and organisation when `id` is undefined; a team for
   * `team:<id>`, an organisation for `organization:<id>`) after another replica changed it.
   */
  async #reload(id: string | undefined): Promise<void> {
    if (id?.startsWith('team:')) return this.teams.reload(id.slice('team:'.length));
    if (id?.startsWith('organization:')) return this.organizations.reload(id.slice('organization:'.length));
    if (id === undefined) await Promise.all([this.teams.load(), this.organizations.load()]);
    const keys = id === undefined ? await this.store.listKeys() : [await this.store.getKey(id)];
    for (const key of keys) if (key) this.#keys.put(key);
  }

  /** Tells other replicas about a changed key; a failure is reported, never thrown (the change is stored). */
  async #announce(id: string): Promise<void> {
    await this.#keyChanges?.publish(id).catch(this.#onError);
  }

  /**
   * Loads every key from the store, and starts the tokenizer workers in the background (see `warmTokenizer`). Budget
   * spends are read from the ledger when a key is first used.
   */
  static async open(options: AccountsOptions): Promise<Accounts> {
    // Usage-less and cut streams are booked from a token count: the tokenizer loads meanwhile, off the event loop.
    void warmTokenizer();
    const accounts = new Accounts(options.store, options);
    await Promise.all([accounts.teams.load(), accounts.organizations.load()]);
    for (const key of await options.store.listKeys()) accounts.#keys.put(key);
    return accounts;
  }

  /** True when the `Authorization` header holds the master key. */
  isMaster(authorization: string | undefined): boolean {
    const token = bearerToken(authorization);
    if (!token || !this.#master) return false;
    return timingSafeEqual(Buffer.from(hash(token), 'hex'), this.#master);
  }

  /**
   * The virtual key whose secret the header holds (its current one, or the one its last rotation replaced), revoked
   * and expired ones included; undefined otherwise.
   */
  identify(authorization: string | undefined): KeyState | undefined {
    const digest = virtualDigest(bearerToken(authorization));
    return digest === undefined ? undefined : this.#keys.find(digest);
  }

  /**
   * Identifies the caller; throws 401 for a missing, unknown, revoked or expired key (never echoing it). A virtual key
   * this replica does not hold in memory (created on another replica a moment ago, before its announcement arrived) is
   * looked up in the store before the 401, so a key whose creation has returned works on every replica at once: the
   * answer is then a promise. Look-ups are limited per `clientAddress` (see {@link KeyStoreLookup}) and made only for
   * tokens shaped like a virtual key; past the limit an unknown key gets its 401 at once. A key found is kept in
   * memory; revocations still arrive through the key change feed.
   */
  authenticate(authorization: string | undefined, clientAddress?: string): Principal | Promise<Principal> {
    // The secret is hashed once per call: the same digest finds the key and tells which of its secrets it is.
    const token = bearerToken(authorization);
    const digest = virtualDigest(token);
    const state = digest === undefined ? undefined : this.#keys.find(digest);
    if (state && digest !== undefined) return this.#principal(state, digest);
    try {
      this.#static.authenticate(authorization);
      return { kind: 'static' };
    } catch (error) {
      if (!token || digest === undefined || !VIRTUAL_KEY.test(token)) throw error;
      const lookup = this.#lookups.find(digest, clientAddress);
      if (!lookup) throw error;
      return lookup.then((found) => {
        if (!found) throw error;
        return this.#principal(found, digest);
      });
    }
  }

  /**
   * The principal of key `id` (`static` for the config's keys), for work done later on behalf of a key that
   * authenticated earlier (the lines of a batch): from memory, else from the store. Throws 401 when the key is
   * unknown, revoked or expired.
   */
  async principalById(id: string): Promise<Principal> {
    if (id === 'static') return { kind: 'static' };
    let state = this.#keys.get(id);
    if (!state) {
      const key = await this.store.getKey(id);
      if (!key) throw authenticationError('The API key of this batch no longer exists.');
      state = this.#keys.put(key);
    }
    if (state.key.revoked_at) throw authenticationError('This API key has been revoked.');
    if (state.key.expires_at && Date.parse(state.key.expires_at) <= Date.now())
      throw authenticationError('This API key has expired.');
    return { kind: 'virtual', state };
  }

  /**
   * The 401 that ends a virtual key's calls now (revoked, expired, or its secret rotated and the old one's grace period
   * over, `authorization` being what the caller authenticated with), else undefined; static keys never end.
   */
  keyError(principal: Principal, authorization: string | undefined): GatewayError | undefined {
    if (principal.kind !== 'virtual') return undefined;
    try {
      this.#principal(principal.state, hash(bearerToken(authorization) ?? ''));
      return undefined;
    } catch (error) {
      return error as GatewayError;
    }
  }

  /** The principal of `state` authenticated with the secret whose SHA-256 is `digest` (hex); throws 401 as above. */
  #principal(state: KeyState, digest: string): Principal {
    if (state.key.revoked_at) throw authenticationError('This API key has been revoked.');
    if (secretOf(state.key, digest) === 'expired')
      throw authenticationError('This API key was rotated and its grace period has ended: use its new secret.');
    if (state.key.expires_at && Date.parse(state.key.expires_at) <= Date.now())
      throw authenticationError('This API key has expired.');
    return { kind: 'virtual', state };
  }

  /**
   * Admits one call of `model` estimated at `estimate` (tokens, or tokens and USD) for `parties` (its end user and
   * agent session): the key's limits and those of its team, organisation, end user and session (see `callScopes`) must
   * all admit it, checked and taken in one atomic step; throws 403 when the key, its team or organisation may not use
   * the model, 429 `rate_limit_exceeded` when the requests or tokens per minute are used up, 429
   * `insufficient_quota` when the budget is spent, or when calls in flight reserved so much of it that this call's
   * estimate does not fit (the message says which; see `budgetRefusal`), 429
   * `concurrency_limit_exceeded` when `concurrency_limit` calls of the key are in flight. On success one request, the
   * token estimate, the cost estimate and a concurrency slot are reserved atomically in the {@link Limiter}; give the
   * slot back with {@link release} when the call ends. With `limits: 'requests'` only the allow-list, rpm and concurrency
   * apply (a call that costs nothing: `/v1/messages/count_tokens`), neither tpm nor the budget.
   */
  admit(
    principal: Principal,
    model: string,
    estimate: CallEstimate | number,
    limits: 'all' | 'requests' = 'all',
    parties: CallParties = {},
  ): Promise<Admission> {
    const detail: CallEstimate = typeof estimate === 'number' ? { tokens: estimate, costUsd: 0 } : estimate;
    if (principal.kind === 'static') return Promise.resolve({ reservedTokens: 0, reservedUsd: 0, headers: {} });
    const groups = this.groupsOf(principal.state.key);
    return admitCall(this.#admission, principal.state, groups, model, detail, limits, parties);
  }

  /** The key's team and that team's organisation (those that exist). */
  groupsOf(key: VirtualKey): KeyGroups {
    const team = this.teams.get(key.team_id);
    return { team, organization: this.organizations.get(team?.organization_id) };
  }

  /**
   * True when the key's budget in its current window is spent (see {@link isBudgetSpent}); false for static keys and
   * keys without a budget. Rejects when the limiter's backend fails.
   */
  async budgetSpent(principal: Principal): Promise<boolean> {
    if (principal.kind !== 'virtual') return false;
    return isBudgetSpent(this.#admission, principal.state);
  }

  /** The 429 `insufficient_quota` of a key whose budget is spent (see {@link budgetSpent}). */
  budgetSpentError(principal: Principal): GatewayError {
    const key = principal.kind === 'virtual' ? principal.state.key : undefined;
    return key ? budgetRefusal(key, undefined, { costUsd: 0 }, {}) : authenticationError('No budget.');
  }

  /**
   * Gives back the concurrency slot of an admitted call (once it has ended: answered, failed, stream finished or
   * aborted); resolves once it is given back. Does nothing for calls without a slot; a failure goes to `onError` (a
   * Redis slot then expires by itself). Never rejects.
   */
  release(principal: Principal, admission: Admission): Promise<void> {
    if (principal.kind !== 'virtual' || !admission.slot) return Promise.resolve();
    return this.limiter.release(principal.state.key.id, admission.slot, admission.slotScopes).catch(this.#onError);
  }

  /**
   * Records a finished call: settles the token and cost estimates against actual usage in the limiter (failures go
   * to `onError`), and queues the ledger row (a copy of `row` with the key's id, team, organisation and end user).
   * Resolves once the limiter has applied the settlement. Never rejects.
   */
  settle(principal: Principal, admission: Admission, row: Omit<UsageRow, 'key_id'>): Promise<void> {
    return this.settleRow(principal, admission, {
      ...row,
      ...ownerColumns({ keyId: principal.kind === 'virtual' ? principal.state.key.id : 'static', admission }),
    });
  }

  /**
   * {@link settle} with the whole ledger row, made for this call alone: its `key_id`, team, organisation and end user
   * already those of `principal` and `admission` (see `settlementRow`). The row is queued as it is, not copied.
   */
  settleRow(principal: Principal, admission: Admission, row: UsageRow): Promise<void> {
    if (principal.kind !== 'virtual') {
      this.record(row);
      return Promise.resolve();
    }
    const { state } = principal;
    const limits = this.limiter.settle(limitSettlement(state.key, admission, row));
    const settled = this.#onBudgetSettled
      ? limits.then((budgets) => this.#settled(state, admission, budgets ?? []), this.#onError)
      : limits.then(ignore, this.#onError);
    this.record(row);
    return settled;
  }

  /** After a settlement: budget windows' spend after the call (for alerts; see {@link AccountsOptions.onBudgetSettled}). */
  #settled(state: KeyState, admission: Admission, budgets: SettledBudget[]): void {
    if (budgets.length === 0 || !this.#onBudgetSettled) return;
    try {
      this.#onBudgetSettled({ key: state.key, admission, budgets });
    } catch (error) {
      this.#onError(error);
    }
  }

  readonly #pending = new Set<Promise<unknown>>();

  /** Keeps track of a settlement still running (e.g. counting tokens), for {@link settlementsDone}. */
  track(task: Promise<unknown>): void {
    this.#pending.add(task);
    task.finally(() => this.#pending.delete(task)).catch(() => {});
  }

  /** Resolves once every settlement started so far has queued its ledger row (for graceful shutdown). */
  async settlementsDone(): Promise<void> {
    await Promise.allSettled([...this.#pending]);
  }

  /** Queues one ledger row as it is (e.g. a call refused at admission), with its `model` cut to 256 characters. */
  record(row: UsageRow): void {
    this.ledger.record(row.model.length > 256 ? { ...row, model: row.model.slice(0, 256) } : row);
  }

  /** Deletes a team; throws 409 while active keys name it (see {@link TeamRegistry.delete}). Undefined when unknown. */
  deleteTeam(id: string): Promise<ReturnType<TeamRegistry['list']>[number] | undefined> {
    return this.teams.delete(id, this.keys.activeMembers(id));
  }

  /** Deletes an organisation; throws 409 while teams name it. Undefined when unknown. */
  deleteOrganization(id: string): Promise<ReturnType<OrganizationRegistry['list']>[number] | undefined> {
    return this.organizations.delete(id, this.teams.where('organization_id', id).length);
  }

  /** Usage totals; pending ledger rows are written first. */
  async usage(filter: UsageFilter, groupBy?: UsageGroupBy): Promise<UsageTotals[]> {
    await this.ledger.flush();
    return this.store.usageTotals(filter, groupBy);
  }

  /** Resolves when the store answers (for readiness checks); rejects with the store's error otherwise. */
  ping(): Promise<void> {
    return this.store.ping();
  }

  /** Ledger rows, newest first (see {@link UsageQuery}); pending rows are written first. */
  async requests(query: UsageQuery): Promise<UsageRow[]> {
    await this.ledger.flush();
    return this.store.listUsage(query);
  }

  /** Writes pending rows and closes the limiter and the store. */
  async close(): Promise<void> {
    await this.ledger.flush();
    await this.limiter.close();
    await this.store.close();
  }
}
