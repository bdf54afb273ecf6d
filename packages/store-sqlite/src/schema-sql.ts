/**
 * The tables of the SQLite store: `keys` (hashes only, never secrets), `usage` (the ledger), `audit` (append-only:
 * triggers refuse UPDATE and DELETE), `teams` and `organizations`. Idempotent.
 */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS keys (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  models TEXT,
  rpm_limit INTEGER,
  tpm_limit INTEGER,
  budget_usd REAL,
  budget_period TEXT NOT NULL,
  expires_at TEXT,
  metadata TEXT,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE TABLE IF NOT EXISTS usage (
  request_id TEXT NOT NULL,
  key_id TEXT NOT NULL,
  model TEXT NOT NULL,
  provider TEXT,
  upstream_model TEXT,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  cost_usd REAL NOT NULL,
  price_source TEXT,
  latency_ms REAL NOT NULL,
  ttfb_ms REAL,
  status INTEGER NOT NULL,
  stream INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS usage_key_time ON usage (key_id, created_at);
CREATE INDEX IF NOT EXISTS usage_time ON usage (created_at);
CREATE TABLE IF NOT EXISTS audit (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT,
  source_address TEXT,
  before TEXT,
  after TEXT
);
CREATE INDEX IF NOT EXISTS audit_time ON audit (created_at, id);
CREATE INDEX IF NOT EXISTS audit_actor ON audit (actor, created_at);
CREATE INDEX IF NOT EXISTS audit_target ON audit (target, created_at);
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'audit is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'audit is append-only'); END;
CREATE TABLE IF NOT EXISTS teams (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  models TEXT,
  rpm_limit INTEGER,
  tpm_limit INTEGER,
  concurrency_limit INTEGER,
  budget_usd REAL,
  budget_period TEXT NOT NULL,
  budget_started_at TEXT,
  end_user_budget_usd REAL,
  end_user_budget_period TEXT,
  end_user_rpm_limit INTEGER,
  session_budget_usd REAL,
  session_rpm_limit INTEGER,
  metadata TEXT,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  models TEXT,
  rpm_limit INTEGER,
  tpm_limit INTEGER,
  concurrency_limit INTEGER,
  budget_usd REAL,
  budget_period TEXT NOT NULL,
  budget_started_at TEXT,
  end_user_budget_usd REAL,
  end_user_budget_period TEXT,
  end_user_rpm_limit INTEGER,
  session_budget_usd REAL,
  session_rpm_limit INTEGER,
  metadata TEXT,
  created_at TEXT NOT NULL
);
`;

/** Team columns added after the first release; missing ones are added at startup (`ALTER TABLE teams ADD COLUMN`). */
export const ADDED_TEAM_COLUMNS: Record<string, string> = {
  organization_id: 'TEXT',
};

/** Key columns added after the first release; missing ones are added at startup (`ALTER TABLE keys ADD COLUMN`). */
export const ADDED_KEY_COLUMNS: Record<string, string> = {
  concurrency_limit: 'INTEGER',
  previous_key_hash: 'TEXT',
  previous_key_prefix: 'TEXT',
  previous_key_expires_at: 'TEXT',
  rotated_at: 'TEXT',
  team_id: 'TEXT',
  budget_started_at: 'TEXT',
  end_user_budget_usd: 'REAL',
  end_user_budget_period: 'TEXT',
  end_user_rpm_limit: 'INTEGER',
  session_budget_usd: 'REAL',
  session_rpm_limit: 'INTEGER',
};

/** Indexes on added key columns, created once those columns exist. */
export const KEY_INDEXES_SQL =
  'CREATE UNIQUE INDEX IF NOT EXISTS keys_previous_hash ON keys (previous_key_hash) WHERE previous_key_hash IS NOT NULL;';

/** Ledger columns added after the first release; missing ones are added at startup (`ALTER TABLE usage ADD COLUMN`). */
export const ADDED_USAGE_COLUMNS: Record<string, string> = {
  price_source: 'TEXT',
  attempts: 'INTEGER NOT NULL DEFAULT 1',
  usage_estimated: 'INTEGER NOT NULL DEFAULT 0',
  cache_hit: 'INTEGER NOT NULL DEFAULT 0',
  hedged: 'INTEGER NOT NULL DEFAULT 0',
  stream_failover: 'INTEGER NOT NULL DEFAULT 0',
  operation: 'TEXT',
  session_id: 'TEXT',
  agent_id: 'TEXT',
  parent_agent_id: 'TEXT',
  batch_id: 'TEXT',
  team_id: 'TEXT',
  end_user: 'TEXT',
  organization_id: 'TEXT',
};

/** Indexes on added ledger columns, created once those columns exist. */
export const ADDED_INDEXES_SQL = `
CREATE INDEX IF NOT EXISTS usage_team_time ON usage (team_id, created_at) WHERE team_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS usage_end_user_time ON usage (end_user, created_at) WHERE end_user IS NOT NULL;
CREATE INDEX IF NOT EXISTS usage_organization_time ON usage (organization_id, created_at) WHERE organization_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS usage_session_time ON usage (session_id, created_at) WHERE session_id IS NOT NULL;
`;
