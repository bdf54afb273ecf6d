import type Database from 'better-sqlite3';

/**
 * Table `responses`: one row per stored response. `record` (the JSON) is the last column, so that the small ones
 * (owner, expiry, the link, the size) are read without walking a large record's overflow pages.
 */
const RESPONSES_TABLE = `
CREATE TABLE responses (
  id TEXT PRIMARY KEY,
  owner TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  previous_response_id TEXT,
  bytes INTEGER NOT NULL,
  record TEXT NOT NULL
)`;

/** Indexes of `responses`, and table `response_items` (which response holds an item id, for `item_reference`). */
const INDEXES = `
CREATE INDEX IF NOT EXISTS responses_expiry ON responses (expires_at);
CREATE INDEX IF NOT EXISTS responses_owner_time ON responses (owner, created_at);
CREATE TABLE IF NOT EXISTS response_items (
  owner TEXT NOT NULL,
  item_id TEXT NOT NULL,
  response_id TEXT NOT NULL,
  PRIMARY KEY (owner, item_id, response_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS response_items_response ON response_items (response_id);
`;

/**
 * Rows of the first layout (`id, owner, created_at, expires_at, record`, each record holding a copy of the whole
 * conversation before it in `history`) are copied into the new layout as they are (their size measured, no link):
 * they stay readable and can be continued. Their input and output item ids are indexed.
 */
const MIGRATE_FIRST_LAYOUT = `
INSERT INTO responses_new (id, owner, created_at, expires_at, previous_response_id, bytes, record)
  SELECT id, owner, created_at, expires_at, NULL, length(CAST(record AS BLOB)), record FROM responses;
DROP TABLE responses;
ALTER TABLE responses_new RENAME TO responses;
`;

const INDEX_ITEMS_OF_ALL_ROWS = `
INSERT OR IGNORE INTO response_items (owner, item_id, response_id)
  SELECT r.owner, json_extract(j.value, '$.id'), r.id FROM responses r, json_each(r.record, '$.input_items') j
  WHERE json_extract(j.value, '$.id') IS NOT NULL AND coalesce(json_extract(j.value, '$.type'), '') != 'item_reference';
INSERT OR IGNORE INTO response_items (owner, item_id, response_id)
  SELECT r.owner, json_extract(j.value, '$.id'), r.id FROM responses r, json_each(r.record, '$.response.output') j
  WHERE json_extract(j.value, '$.id') IS NOT NULL;
`;

/**
 * Creates the stored-responses tables, or brings a database of an earlier version up to date in one transaction
 * (idempotent; safe when several processes open the file at once). Throws SQLite's error when the file is not
 * writable or is not a database.
 */
export function migrateResponsesTable(db: Database.Database): void {
  db.transaction(() => {
    const columns = db
      .prepare<[], { name: string }>("SELECT name FROM pragma_table_info('responses')")
      .all()
      .map((c) => c.name);
    if (columns.length === 0) {
      db.exec(RESPONSES_TABLE);
    } else if (!columns.includes('bytes')) {
      db.exec(RESPONSES_TABLE.replace('CREATE TABLE responses', 'CREATE TABLE responses_new'));
      db.exec(MIGRATE_FIRST_LAYOUT);
      db.exec('DROP INDEX IF EXISTS responses_expiry');
      db.exec(INDEXES);
      db.exec(INDEX_ITEMS_OF_ALL_ROWS);
      return;
    }
    db.exec(INDEXES);
  }).immediate();
}
