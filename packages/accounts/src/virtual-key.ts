/** How often a key's budget resets: per UTC day, per UTC calendar month, or never (`total`). */
export type BudgetPeriod = 'day' | 'month' | 'total';

/**
 * A gateway-issued key and its limits, as stored. The secret itself is never stored: only its SHA-256 hash
 * (`key_hash`, hex) and a display prefix (`key_prefix`, e.g. `sk-sy-AbC1…`).
 */
export interface VirtualKey {
  id: string;
  name: string;
  key_hash: string;
  key_prefix: string;
  /** Model ids or globs (`gpt-4o*`, `anthropic/*`) this key may use; null = all. */
  models: string[] | null;
  /** Requests per minute; null = unlimited. */
  rpm_limit: number | null;
  /** Tokens (prompt + completion) per minute; null = unlimited. */
  tpm_limit: number | null;
  /** Calls in flight at once (streams until they end); null or absent (keys stored before it existed) = unlimited. */
  concurrency_limit?: number | null;
  /** Spend limit per `budget_period`, USD; null = unlimited. */
  budget_usd: number | null;
  budget_period: BudgetPeriod;
  /** ISO-8601; null = never. */
  expires_at: string | null;
  metadata: Record<string, unknown> | null;
  /** ISO-8601. */
  created_at: string;
  /** ISO-8601 when revoked; null while active. */
  revoked_at: string | null;
}

/** A key as the admin API shows it: no hash. */
export type VirtualKeyView = Omit<VirtualKey, 'key_hash'>;

/** Strips the hash before a key leaves the server. */
export function toKeyView(key: VirtualKey): VirtualKeyView {
  const { key_hash: _hash, ...view } = key;
  return { ...view, concurrency_limit: key.concurrency_limit ?? null };
}
