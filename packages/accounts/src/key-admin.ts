import { randomUUID } from 'node:crypto';
import { GatewayError } from '@switchyard/core';
import type { AccountStore } from './account-store.js';
import type { CreateKeyInput, UpdateKeyInput } from './key-input-schema.js';
import type { KeyRegistry } from './key-registry.js';
import { newKeySecret, rotateSecret } from './key-secret.js';
import { applyLimitChanges } from './limit-fields.js';
import { type TeamRegistry, teamNotFoundError } from './team-registry.js';
import { toKeyView, type VirtualKey, type VirtualKeyView } from './virtual-key.js';

/** What {@link KeyAdmin} works on: the store, the keys held in memory, the teams, and the change announcer. */
export interface KeyAdminContext {
  store: AccountStore;
  keys: KeyRegistry;
  teams: TeamRegistry;
  /** Tells other replicas that key `id` changed; never rejects. */
  announce: (id: string) => Promise<void>;
}

/**
 * The administration of virtual keys (the admin API's `/admin/keys`): create, list, get, change, rotate and revoke.
 * Each change is written to the store, held in memory at once and announced to other replicas. Secrets are returned
 * once, at creation and rotation, and stored only as SHA-256 hashes. Reached as `accounts.keys`.
 */
export class KeyAdmin {
  readonly #context: KeyAdminContext;

  /** @param context the store, the in-memory keys, the teams and the change announcer (see {@link KeyAdminContext}). */
  constructor(context: KeyAdminContext) {
    this.#context = context;
  }

  /**
   * Creates a key; the secret (`sk-sy-…`) is returned once, here, and stored only as a hash. Throws 404
   * `team_not_found` for an unknown `team_id`.
   */
  async create(input: CreateKeyInput): Promise<VirtualKeyView & { key: string }> {
    const { store, keys, teams, announce } = this.#context;
    if (input.team_id && !teams.get(input.team_id)) throw teamNotFoundError(input.team_id, 'team_id');
    const { secret, key_hash, key_prefix } = newKeySecret();
    const key: VirtualKey = {
      ...limitsOf(input),
      id: `key_${randomUUID().replaceAll('-', '')}`,
      name: input.name,
      key_hash,
      key_prefix,
      budget_started_at: null,
      team_id: input.team_id ?? null,
      expires_at: input.expires_at ?? null,
      metadata: input.metadata ?? null,
      created_at: new Date().toISOString(),
      revoked_at: null,
      previous_key_hash: null,
      previous_key_prefix: null,
      previous_key_expires_at: null,
      rotated_at: null,
    };
    await store.insertKey(key);
    keys.put(key);
    await announce(key.id);
    return { ...toKeyView(key), key: secret };
  }

  /** Every key (no secrets, no hashes). */
  list(): VirtualKeyView[] {
    return [...this.#context.keys.all()].map((s) => toKeyView(s.key));
  }

  /** One key, or undefined. */
  get(id: string): VirtualKeyView | undefined {
    const state = this.#context.keys.get(id);
    return state && toKeyView(state.key);
  }

  /**
   * Changes a key's fields; limits apply at once (a budget set where there was none, or a changed period, counts spend
   * from now: see `LimitFields.budget_started_at`). Throws 404 `team_not_found` for an unknown `team_id`. Undefined
   * when there is no such key.
   */
  async update(id: string, input: UpdateKeyInput): Promise<VirtualKeyView | undefined> {
    const { store, keys, teams, announce } = this.#context;
    const state = keys.get(id);
    if (!state) return undefined;
    if (input.team_id && !teams.get(input.team_id)) throw teamNotFoundError(input.team_id, 'team_id');
    const key = applyLimitChanges(state.key, input as Partial<VirtualKey>);
    await store.updateKey(key);
    keys.put(key);
    await announce(id);
    return toKeyView(key);
  }

  /**
   * Rotates a key's secret (see {@link rotateSecret}): the new secret is returned once, here; the replaced one stays
   * valid for `graceSeconds` (s). The key keeps its id, limits, spend and history. Undefined when there is no such key;
   * throws 409 `key_revoked` for a revoked key.
   */
  async rotate(id: string, graceSeconds: number): Promise<(VirtualKeyView & { key: string }) | undefined> {
    const { store, keys, announce } = this.#context;
    const state = keys.get(id);
    if (!state) return undefined;
    if (state.key.revoked_at)
      throw new GatewayError({
        status: 409,
        type: 'invalid_request_error',
        code: 'key_revoked',
        param: 'id',
        message: `Key '${id}' is revoked and cannot be rotated.`,
      });
    const { key, secret } = rotateSecret(state.key, graceSeconds);
    await store.rotateKeySecret(key);
    keys.put(key);
    await announce(id);
    return { ...toKeyView(key), key: secret };
  }

  /** Revokes a key: it gets 401 from now on. Undefined when there is no such key. */
  async revoke(id: string): Promise<VirtualKeyView | undefined> {
    const { store, keys, announce } = this.#context;
    const state = keys.get(id);
    if (!state) return undefined;
    const key = { ...state.key, revoked_at: state.key.revoked_at ?? new Date().toISOString() };
    await store.updateKey(key);
    keys.put(key);
    await announce(id);
    return toKeyView(key);
  }

  /** How many keys that are not revoked belong to team `teamId`. */
  activeMembers(teamId: string): number {
    return [...this.#context.keys.all()].filter((s) => s.key.team_id === teamId && !s.key.revoked_at).length;
  }
}

/** The limit fields of a new key from its creation input (unset limits are null; the budget period `total`). */
function limitsOf(input: CreateKeyInput) {
  return {
    models: input.models ?? null,
    rpm_limit: input.rpm_limit ?? null,
    tpm_limit: input.tpm_limit ?? null,
    concurrency_limit: input.concurrency_limit ?? null,
    budget_usd: input.budget_usd ?? null,
    budget_period: input.budget_period ?? 'total',
    end_user_budget_usd: input.end_user_budget_usd ?? null,
    end_user_budget_period: input.end_user_budget_period ?? null,
    end_user_rpm_limit: input.end_user_rpm_limit ?? null,
    session_budget_usd: input.session_budget_usd ?? null,
    session_rpm_limit: input.session_rpm_limit ?? null,
  } satisfies Partial<VirtualKey>;
}
