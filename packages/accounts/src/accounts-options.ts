import type { AccountStore } from './account-store.js';
import type { Admission } from './admission.js';
import type { KeyChangeFeed } from './key-change-feed.js';
import type { KeyLookupLimiterOptions } from './key-lookup-limiter.js';
import type { Limiter, SettledBudget } from './limiter.js';
import type { UsageLedgerOptions } from './usage-ledger.js';
import type { VirtualKey } from './virtual-key.js';

/** One settled call's budget windows and their spend after it (see {@link AccountsOptions.onBudgetSettled}). */
export interface BudgetSettledEvent {
  key: VirtualKey;
  admission: Admission;
  budgets: SettledBudget[];
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
  /** Where rpm, tpm and budget counters live. Default: a {@link MemoryLimiter} (this process only). */
  limiter?: Limiter;
  /** Carries key changes to and from other replicas (e.g. Redis pub/sub). */
  keyChanges?: KeyChangeFeed;
  /** Limits on store look-ups of keys this replica does not know yet (see {@link Accounts.authenticate}). */
  keyLookups?: KeyLookupLimiterOptions;
  /** Time zone in which `day`, `week` and `month` budgets reset (IANA name). Default `UTC`. */
  budgetTimeZone?: string;
  /** A failed ledger write (its rows are kept and retried), or a failed key announcement or reload. */
  onError?: (error: unknown) => void;
  /** A failed audit log write (default: `onError`). */
  onAuditError?: (error: unknown) => void;
  /** Called after each settlement with the budget windows it added to (key, team, organisation, end user, session). */
  onBudgetSettled?: (event: BudgetSettledEvent) => void;
  /** Ledger rows lost because the buffer was full: `count` since the last report, `total` since start. */
  onLedgerDropped?: (count: number, total: number) => void;
}
