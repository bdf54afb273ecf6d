import type pg from 'pg';
import { MIGRATIONS, type Migration } from './migrations.js';

/** Key of the session-level advisory lock held while migrating (any fixed 64-bit number; this one spells "swyd"). */
export const MIGRATION_LOCK_KEY = 0x73777964;

/**
 * Applies the pending `migrations` under a Postgres advisory lock, so that replicas starting at the same time on an
 * empty database migrate once: the first takes the lock and migrates, the others wait for it and then find nothing
 * left to do. Applied versions are recorded in `switchyard_migrations`. Returns the versions this call applied.
 * Throws the database error of a failing migration (its transaction is rolled back; the lock is released).
 * @see https://www.postgresql.org/docs/current/explicit-locking.html#ADVISORY-LOCKS
 */
export async function migrate(
  pool: pg.Pool,
  migrations: readonly Migration[] = MIGRATIONS,
  timeoutMs = 60_000,
): Promise<number[]> {
  const client = await pool.connect();
  const query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) =>
    client.query<R>({ text, values, query_timeout: timeoutMs });
  const applied: number[] = [];
  try {
    // Waiting for the lock and running migrations may take longer than one ordinary store call.
    await query(`SET statement_timeout = ${Math.floor(timeoutMs)}`);
    await query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      // Created only when missing: a gateway role without CREATE on the schema (see docs/security-admin.md) can start on a
      // database its owner has migrated, since nothing is left to do.
      const { rows: exists } = await query<{ table: string | null }>(
        "SELECT to_regclass('switchyard_migrations')::text AS table",
      );
      if (!exists[0]?.table) {
        await query(
          'CREATE TABLE IF NOT EXISTS switchyard_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
        );
      }
      const { rows } = await query<{ version: number }>('SELECT version FROM switchyard_migrations');
      const done = new Set(rows.map((r) => r.version));
      for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
        if (done.has(migration.version)) continue;
        await query('BEGIN');
        try {
          await query(migration.sql);
          await query('INSERT INTO switchyard_migrations (version, name) VALUES ($1, $2)', [
            migration.version,
            migration.name,
          ]);
          await query('COMMIT');
        } catch (error) {
          await query('ROLLBACK').catch(() => {});
          throw error;
        }
        applied.push(migration.version);
      }
    } finally {
      await query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    }
  } finally {
    // The session's statement_timeout was changed: never hand this connection back to the pool.
    client.release(true);
  }
  return applied;
}
