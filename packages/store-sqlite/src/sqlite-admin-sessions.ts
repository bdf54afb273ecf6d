import type { AdminSession, AdminSessionStore } from '@switchyard/accounts';
import type Database from 'better-sqlite3';

/** The console sessions table: one row per signed-in session, keyed by the SHA-256 of its id. Idempotent. */
export const ADMIN_SESSIONS_SQL = `
CREATE TABLE IF NOT EXISTS admin_sessions (
  id_hash TEXT PRIMARY KEY,
  actor TEXT NOT NULL,
  role TEXT NOT NULL,
  teams TEXT NOT NULL,
  method TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS admin_sessions_expiry ON admin_sessions (expires_at);
`;

type SessionRow = Omit<AdminSession, 'teams'> & { teams: string };

/** {@link AdminSessionStore} on the SQLite store's database (its table is created on construction). */
export class SqliteAdminSessions implements AdminSessionStore {
  constructor(private readonly db: Database.Database) {
    db.exec(ADMIN_SESSIONS_SQL);
  }

  async insertAdminSession(session: AdminSession): Promise<void> {
    this.db
      .prepare(
        'INSERT INTO admin_sessions (id_hash, actor, role, teams, method, created_at, expires_at) VALUES (@id_hash, @actor, @role, @teams, @method, @created_at, @expires_at)',
      )
      .run({ ...session, teams: JSON.stringify(session.teams) });
  }

  async getAdminSession(idHash: string): Promise<AdminSession | undefined> {
    const row = this.db.prepare('SELECT * FROM admin_sessions WHERE id_hash = ?').get(idHash) as SessionRow | undefined;
    return row && { ...row, teams: JSON.parse(row.teams) as string[] };
  }

  async deleteAdminSession(idHash: string): Promise<void> {
    this.db.prepare('DELETE FROM admin_sessions WHERE id_hash = ?').run(idHash);
  }

  async deleteExpiredAdminSessions(now: number): Promise<number> {
    return this.db.prepare('DELETE FROM admin_sessions WHERE expires_at <= ?').run(now).changes;
  }
}
