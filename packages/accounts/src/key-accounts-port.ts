import type { GatewayError } from '@switchyard/core';
import type { Admission, CallEstimate } from './admission.js';
import type { KeyGroups } from './call-admission.js';
import type { CallParties } from './call-scopes.js';
import type { KeyState } from './key-state.js';
import type { Principal } from './principal.js';
import type { UsageRow } from './usage-row.js';
import type { VirtualKey } from './virtual-key.js';

/**
 * What {@link KeyAccounting} needs of the gateway's `Accounts` (which implements it): identify and authenticate keys,
 * admit a call against the key's limits, release and settle its admission, record ledger rows and track background
 * settlements. Kept as its own contract so that `Accounts` and `KeyAccounting` do not import each other.
 */
export interface KeyAccountsPort {
  /** The key an `Authorization` header names, if this replica knows it (no store look-up, no refusal). */
  identify(authorization: string | undefined): KeyState | undefined;
  /** The caller of an `Authorization` header; throws 401 for a missing, unknown, revoked or expired key. */
  authenticate(authorization: string | undefined, clientAddress?: string): Principal | Promise<Principal>;
  /**
   * Admits a call to `model` with its estimate (tokens, USD) for `parties` (its end user and session); throws 403 or
   * 429 naming the limit.
   */
  admit(
    principal: Principal,
    model: string,
    estimate: CallEstimate | number,
    limits?: 'all' | 'requests',
    parties?: CallParties,
  ): Promise<Admission>;
  /** The key's team and its organisation, to narrow a plan by their allow-lists (see `filterPlanForKey`). */
  groupsOf(key: VirtualKey): KeyGroups;
  /** Frees the call's concurrency slot. */
  release(principal: Principal, admission: Admission): Promise<void>;
  /** Settles the call's reservation with what it used and records its ledger row. */
  settle(principal: Principal, admission: Admission, row: Omit<UsageRow, 'key_id'>): Promise<void>;
  /** {@link settle} with the whole row (key id and groups included), queued as it is. */
  settleRow(principal: Principal, admission: Admission, row: UsageRow): Promise<void>;
  /** Keeps a background settlement alive until it ends (awaited at shutdown). */
  track(task: Promise<unknown>): void;
  /** Records one ledger row. */
  record(row: UsageRow): void;
  /** The 401 that ends the key's calls now (revoked, expired, rotated past its grace), else undefined. */
  keyError(principal: Principal, authorization: string | undefined): GatewayError | undefined;
  /** Time zone in which `day`, `week` and `month` budgets reset (IANA name). */
  readonly budgetTimeZone: string;
  /** True when the key's budget in its current window is spent; rejects when the limiter fails. */
  budgetSpent(principal: Principal): Promise<boolean>;
  /** The 429 `insufficient_quota` of a key whose budget is spent. */
  budgetSpentError(principal: Principal): GatewayError;
}
