import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { KeyRing, authenticationError } from '@switchyard/core';
import type { AccountStore } from './account-store.js';
import type { CreateKeyInput, UpdateKeyInput } from './key-input-schema.js';
import { KeyState } from './key-state.js';
import { matchesModelGlob } from './match-model-glob.js';
import { formatResetMs, modelNotAllowedError, rateLimitError } from './rate-limit-error.js';
import { UsageLedger, type UsageLedgerOptions } from './usage-ledger.js';
import type { UsageQuery } from './usage-query.js';
import type { UsageFilter, UsageGroupBy, UsageRow, UsageTotals } from './usage-row.js';
import { type VirtualKey, type VirtualKeyView, toKeyView } from './virtual-key.js';

/** Who is calling: a static key from the config file, or a virtual key (with its live limits). */
export type Principal = { kind: 'static' } | { kind: 'virtual'; state: KeyState };

/** What {@link Accounts.admit} reserved; pass it to {@link Accounts.settle}. */
export interface Admission {
  /** Tokens reserved from the tokens-per-minute bucket (the pre-call estimate). */
  reservedTokens: number;
  /** `x-ratelimit-*` response headers. */
  headers: Record<string, string>;
}

/** Options of {@link Accounts.open}. */
export interface AccountsOptions {
  store: AccountStore;
  /** Keys from the config file: unlimited, not in the database. */
  staticKeys: readonly string[];
  /** The admin master key (`admin.master_key`); without it the admin API answers 401. */
  masterKey?: string;
  /** Ledger flush interval, ms. Default 1,000. */
  ledgerFlushMs?: number;
  /** Most ledger rows held while the store cannot be written; see {@link UsageLedgerOptions.maxBuffered}. Default 100,000. */
  ledgerMaxBuffered?: number;
  /** A failed ledger write (its rows are kept and retried). */
  onError?: (error: unknown) => void;
  /** Ledger rows lost because the buffer was full: `count` since the last report, `total` since start. */
  onLedgerDropped?: (count: number, total: number) => void;
}

const PREFIX = 'sk-sy-';
const hash = (key: string) => createHash('sha256').update(key).digest('hex');

/**
 * The gateway's own accounts: virtual keys (`sk-sy-…`, stored as SHA-256 hashes, held in memory and compared in
 * constant time), model allow-lists, requests- and tokens-per-minute limits, budgets in USD per day, month or in
 * total, and the usage ledger (batched writes). Limits are enforced per gateway process.
 */
export class Accounts {
  readonly #keys = new Map<string, KeyState>();
  readonly #byHash = new Map<string, KeyState>();
  readonly #static: KeyRing;
  readonly #master?: Buffer;
  readonly ledger: UsageLedger;

  private constructor(
    private readonly store: AccountStore,
    options: AccountsOptions,
  ) {
    this.#static = new KeyRing(options.staticKeys);
    this.#master = options.masterKey ? Buffer.from(hash(options.masterKey), 'hex') : undefined;
    this.ledger = new UsageLedger(store, {
      flushMs: options.ledgerFlushMs,
      maxBuffered: options.ledgerMaxBuffered,
      onError: options.onError,
      onDropped: options.onLedgerDropped,
    });
  }

  /** Loads every key and the spend of its current budget window from the store. */
  static async open(options: AccountsOptions): Promise<Accounts> {
    const accounts = new Accounts(options.store, options);
    for (const key of await options.store.listKeys()) {
      const state = new KeyState(key);
      if (key.budget_usd !== null) state.spentUsd = await options.store.spendSince(key.id, state.windowStart);
      accounts.#remember(state);
    }
    return accounts;
  }

  #remember(state: KeyState): void {
    this.#keys.set(state.key.id, state);
    this.#byHash.set(state.key.key_hash, state);
  }

  /** True when the `Authorization` header holds the master key. */
  isMaster(authorization: string | undefined): boolean {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (!token || !this.#master) return false;
    return timingSafeEqual(Buffer.from(hash(token), 'hex'), this.#master);
  }

  /** Identifies the caller; throws 401 for a missing, unknown, revoked or expired key (never echoing it). */
  authenticate(authorization: string | undefined): Principal {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (token?.startsWith(PREFIX)) {
      const digest = hash(token);
      const state = this.#byHash.get(digest);
      if (state && timingSafeEqual(Buffer.from(digest, 'hex'), Buffer.from(state.key.key_hash, 'hex'))) {
        if (state.key.revoked_at) throw authenticationError('This API key has been revoked.');
        if (state.key.expires_at && Date.parse(state.key.expires_at) <= Date.now()) throw authenticationError('This API key has expired.');
        return { kind: 'virtual', state };
      }
    }
    this.#static.authenticate(authorization);
    return { kind: 'static' };
  }

  /**
   * Admits one call of `model` estimated at `estimatedTokens`: throws 403 when the key may not use the model, 429
   * `rate_limit_exceeded` when the requests or tokens per minute are used up, 429 `insufficient_quota` when the budget
   * is spent. On success one request and the estimate are taken from the buckets.
   */
  admit(principal: Principal, model: string, estimatedTokens: number): Admission {
    if (principal.kind === 'static') return { reservedTokens: 0, headers: {} };
    const { state } = principal;
    const { key } = state;
    if (key.models && !matchesModelGlob(model, key.models)) throw modelNotAllowedError(model);
    const headers: Record<string, string> = {};
    if (state.requests) {
      const ok = state.requests.tryTake(1);
      Object.assign(headers, {
        'x-ratelimit-limit-requests': String(key.rpm_limit),
        'x-ratelimit-remaining-requests': String(Math.max(0, Math.floor(state.requests.remaining))),
        'x-ratelimit-reset-requests': formatResetMs(state.requests.msUntil(state.requests.capacity)),
      });
      if (!ok) {
        const wait = state.requests.msUntil(1);
        throw rateLimitError(`Rate limit reached for requests: ${key.rpm_limit} per minute.`, 'rate_limit_exceeded', { ...headers, 'retry-after': String(Math.ceil(wait / 1000)) }, 'rpm');
      }
    }
    let reservedTokens = 0;
    if (state.tokens) {
      const wanted = Math.min(estimatedTokens, state.tokens.capacity);
      const ok = state.tokens.tryTake(wanted);
      Object.assign(headers, {
        'x-ratelimit-limit-tokens': String(key.tpm_limit),
        'x-ratelimit-remaining-tokens': String(Math.max(0, Math.floor(state.tokens.remaining))),
        'x-ratelimit-reset-tokens': formatResetMs(state.tokens.msUntil(state.tokens.capacity)),
      });
      if (!ok || state.tokens.remaining < 0) {
        if (ok) state.tokens.adjust(wanted);
        state.requests?.adjust(1);
        throw rateLimitError(`Rate limit reached for tokens: ${key.tpm_limit} per minute.`, 'rate_limit_exceeded', headers, 'tpm');
      }
      reservedTokens = wanted;
    }
    if (key.budget_usd !== null && state.spend() >= key.budget_usd) {
      state.requests?.adjust(1);
      state.tokens?.adjust(reservedTokens);
      throw rateLimitError(`This key's budget of ${key.budget_usd} USD per ${key.budget_period} is spent.`, 'insufficient_quota', headers, 'budget');
    }
    return { reservedTokens, headers };
  }

  /** Records a finished call: settles the token estimate against actual usage, adds the cost to the spend, queues the ledger row. */
  settle(principal: Principal, admission: Admission, row: Omit<UsageRow, 'key_id'>): void {
    if (principal.kind === 'virtual') {
      const { state } = principal;
      state.tokens?.adjust(admission.reservedTokens - (row.prompt_tokens + row.completion_tokens));
      state.spend();
      state.spentUsd += row.cost_usd;
    }
    this.ledger.record({ ...row, key_id: principal.kind === 'virtual' ? principal.state.key.id : 'static' });
  }

  /** Creates a key; the secret is returned once, here, and stored only as a hash. */
  async createKey(input: CreateKeyInput): Promise<VirtualKeyView & { key: string }> {
    const secret = `${PREFIX}${randomBytes(24).toString('base64url')}`;
    const key: VirtualKey = {
      id: `key_${randomUUID().replaceAll('-', '')}`,
      name: input.name,
      key_hash: hash(secret),
      key_prefix: `${secret.slice(0, 10)}…`,
      models: input.models ?? null,
      rpm_limit: input.rpm_limit ?? null,
      tpm_limit: input.tpm_limit ?? null,
      budget_usd: input.budget_usd ?? null,
      budget_period: input.budget_period ?? 'total',
      expires_at: input.expires_at ?? null,
      metadata: input.metadata ?? null,
      created_at: new Date().toISOString(),
      revoked_at: null,
    };
    await this.store.insertKey(key);
    this.#remember(new KeyState(key));
    return { ...toKeyView(key), key: secret };
  }

  /** Every key (no secrets, no hashes). */
  listKeys(): VirtualKeyView[] {
    return [...this.#keys.values()].map((s) => toKeyView(s.key));
  }

  /** One key, or undefined. */
  getKey(id: string): VirtualKeyView | undefined {
    const state = this.#keys.get(id);
    return state && toKeyView(state.key);
  }

  /** Changes a key's fields; limits apply at once. Undefined when there is no such key. */
  async updateKey(id: string, input: UpdateKeyInput): Promise<VirtualKeyView | undefined> {
    const state = this.#keys.get(id);
    if (!state) return undefined;
    const key: VirtualKey = { ...state.key, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
    await this.store.updateKey(key);
    state.key = key;
    state.applyLimits();
    return toKeyView(key);
  }

  /** Revokes a key: it gets 401 from now on. Undefined when there is no such key. */
  async revokeKey(id: string): Promise<VirtualKeyView | undefined> {
    const state = this.#keys.get(id);
    if (!state) return undefined;
    const key = { ...state.key, revoked_at: state.key.revoked_at ?? new Date().toISOString() };
    await this.store.updateKey(key);
    state.key = key;
    return toKeyView(key);
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

  /** Writes pending rows and closes the store. */
  async close(): Promise<void> {
    await this.ledger.flush();
    await this.store.close();
  }
}
