import type { AdminSessionStore } from './admin-session.js';
import type { AuditEntry, AuditQuery } from './audit-entry.js';
import type { Organization } from './organization.js';
import type { Team } from './team.js';
import type { UsageQuery } from './usage-query.js';
import type { UsageFilter, UsageGroupBy, UsageRow, UsageTotals } from './usage-row.js';
import type { VirtualKey } from './virtual-key.js';

/**
 * Where accounts live. SQLite (`@switchyard/store-sqlite`, one process) and Postgres (`@switchyard/store-postgres`, shared by replicas) implement it. Methods are
 * async so that networked stores fit; the gateway keeps keys and counters in memory and calls the store only at
 * startup, on admin changes and from the batched ledger writer, never once per request on the hot path.
 */
export interface AccountStore extends AdminSessionStore {
  /** Every key, revoked ones included. */
  listKeys(): Promise<VirtualKey[]>;
  getKey(id: string): Promise<VirtualKey | undefined>;
  /**
   * The key whose secret (`key_hash`) or previous secret (`previous_key_hash`, whatever its grace period) hashes to
   * `keyHash` (SHA-256, hex), revoked ones included; undefined when there is none. Used
   * for a key another replica created that this one has not heard of yet (see `Accounts.authenticate`).
   */
  getKeyByHash(keyHash: string): Promise<VirtualKey | undefined>;
  insertKey(key: VirtualKey): Promise<void>;
  /**
   * Replaces a stored key's fields (same id), except its secrets: `key_hash`, `key_prefix` and the `previous_key_*` and
   * `rotated_at` fields stay as stored (only {@link rotateKeySecret} changes them), so that an update from a replica
   * that has not heard of a rotation yet cannot undo it.
   */
  updateKey(key: VirtualKey): Promise<void>;
  /**
   * Stores a rotation of key `key.id`: its `key_hash`, `key_prefix`, `previous_key_hash`, `previous_key_prefix`,
   * `previous_key_expires_at` and `rotated_at`; other fields stay as stored.
   */
  rotateKeySecret(key: VirtualKey): Promise<void>;
  /** Every team. */
  listTeams(): Promise<Team[]>;
  getTeam(id: string): Promise<Team | undefined>;
  insertTeam(team: Team): Promise<void>;
  /** Replaces a stored team (same id). */
  updateTeam(team: Team): Promise<void>;
  /** Deletes a team (its ledger rows keep its id). Deleting an unknown team does nothing. */
  deleteTeam(id: string): Promise<void>;
  /** Every organisation. */
  listOrganizations(): Promise<Organization[]>;
  getOrganization(id: string): Promise<Organization | undefined>;
  insertOrganization(organization: Organization): Promise<void>;
  /** Replaces a stored organisation (same id). */
  updateOrganization(organization: Organization): Promise<void>;
  /** Deletes an organisation (its teams' and ledger rows keep its id). Deleting an unknown one does nothing. */
  deleteOrganization(id: string): Promise<void>;
  /** Appends ledger rows in one transaction. */
  appendUsage(rows: readonly UsageRow[]): Promise<void>;
  /**
   * What a key (or the rows matching a filter: a team's, an organisation's, an end user's) used since `since` (unix
   * ms): `requests` admitted (rows with an upstream attempt or a cache hit; not the refusals) and their `tokens`
   * (prompt + completion). Rebuilds rate-limit buckets after a Redis restart.
   */
  recentUsage(keyId: string | UsageFilter, since: number): Promise<{ requests: number; tokens: number }>;
  /** Spend of a key since `since` (unix ms), USD. */
  spendSince(keyId: string, since: number): Promise<number>;
  /** Totals per group (or one total when `groupBy` is absent). */
  usageTotals(filter: UsageFilter, groupBy?: UsageGroupBy): Promise<UsageTotals[]>;
  /** Resolves when the store answers (readiness checks); rejects with the reason otherwise. */
  ping(): Promise<void>;
  /** Ledger rows matching `query`, newest first (see {@link UsageQuery} for the order and the cursor). */
  listUsage(query: UsageQuery): Promise<UsageRow[]>;
  /**
   * Appends one audit log entry. The audit log is append-only: no method changes or deletes an entry (the Postgres
   * store needs only INSERT and SELECT on its table, and both stores refuse UPDATE and DELETE with a trigger).
   */
  appendAudit(entry: AuditEntry): Promise<void>;
  /** Audit entries matching `query`, newest first (see {@link AuditQuery}). */
  listAudit(query: AuditQuery): Promise<AuditEntry[]>;
  close(): Promise<void>;
}
