import type { AdminSession, AdminSessionStore } from '@switchyard/accounts';
import type pg from 'pg';

/** A `switchyard_admin_sessions` row (bigint times read as float8 numbers). */
const COLUMNS =
  'id_hash, actor, role, teams, method, created_at::float8 AS created_at, expires_at::float8 AS expires_at';

/**
 * {@link AdminSessionStore} on Postgres (`switchyard_admin_sessions`, migration 14): every replica on the database
 * sees a session as soon as it is stored, and a sign-out on one ends it on all.
 */
export class PostgresAdminSessions implements AdminSessionStore {
  constructor(private readonly pool: pg.Pool) {}

  async insertAdminSession(session: AdminSession): Promise<void> {
    await this.pool.query(
      'INSERT INTO switchyard_admin_sessions (id_hash, actor, role, teams, method, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [
        session.id_hash,
        session.actor,
        session.role,
        session.teams,
        session.method,
        session.created_at,
        session.expires_at,
      ],
    );
  }

  async getAdminSession(idHash: string): Promise<AdminSession | undefined> {
    const { rows } = await this.pool.query<AdminSession>(
      `SELECT ${COLUMNS} FROM switchyard_admin_sessions WHERE id_hash = $1`,
      [idHash],
    );
    return rows[0];
  }

  async deleteAdminSession(idHash: string): Promise<void> {
    await this.pool.query('DELETE FROM switchyard_admin_sessions WHERE id_hash = $1', [idHash]);
  }

  async deleteExpiredAdminSessions(now: number): Promise<number> {
    const result = await this.pool.query('DELETE FROM switchyard_admin_sessions WHERE expires_at <= $1', [now]);
    return result.rowCount ?? 0;
  }
}
