/**
 * The tables of `/v1/files` and `/v1/batches` in the SQLite store: `files` (metadata; the bytes live in a directory),
 * `batches` (one JSON Batch object per row) and `batch_lines` (each input line, its claim and its result). Idempotent.
 */
export const BATCHES_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS files (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  filename TEXT NOT NULL,
  purpose TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS files_owner_time ON files (owner, created_at, id);
CREATE TABLE IF NOT EXISTS batches (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  key_id TEXT NOT NULL,
  runner TEXT NOT NULL,
  upstream_id TEXT,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  batch TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS batches_owner_time ON batches (owner, created_at, id);
CREATE INDEX IF NOT EXISTS batches_status ON batches (status);
CREATE TABLE IF NOT EXISTS batch_lines (
  batch_id TEXT NOT NULL,
  line INTEGER NOT NULL,
  custom_id TEXT NOT NULL,
  body TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  worker TEXT,
  lease_until INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  failed INTEGER,
  result TEXT,
  PRIMARY KEY (batch_id, line)
);
CREATE INDEX IF NOT EXISTS batch_lines_state ON batch_lines (batch_id, state, line);
`;
