import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AdminSession, AdminSessionStore } from '@switchyard/accounts';
import type { AdminIdentity } from './admin-identity.js';

/** Expired sessions are deleted from the store at most this often, ms (on a sign-in). */
const SWEEP_EVERY_MS = 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A session found by its id: who it is, its CSRF token and when it ends (unix ms). */
export interface ResolvedSession {
  identity: AdminIdentity;
  csrfToken: string;
  expiresAt: number;
}

/**
 * Console sessions: a sign-in gets a random 256-bit id (base64url, for the HTTP-only cookie) whose SHA-256 alone is
 * stored (see {@link AdminSessionStore}; on Postgres every replica shares them). Each session's CSRF token is
 * HMAC-SHA256 of a fixed label under the session id: the console reads it from `GET /admin/session` and sends it as
 * `x-csrf-token`; another site can neither read it nor compute it. Expired sessions are refused, and swept from the
 * store at most once a minute on a sign-in, so the table holds only live sessions.
 */
export class AdminSessions {
  #lastSweep = 0;

  constructor(
    private readonly store: AdminSessionStore,
    /** How long a session lasts, ms. */
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Opens a session for `identity`; resolves with its id (for the cookie) and CSRF token. Rejects on a store error. */
  async open(identity: AdminIdentity): Promise<{ id: string; csrfToken: string; expiresAt: number }> {
    const now = this.now();
    if (now - this.#lastSweep >= SWEEP_EVERY_MS) {
      this.#lastSweep = now;
      await this.store.deleteExpiredAdminSessions(now);
    }
    const id = randomBytes(32).toString('base64url');
    const session: AdminSession = {
      id_hash: sha256(id),
      actor: identity.actor,
      role: identity.role,
      teams: [...identity.teams],
      method: identity.method,
      created_at: now,
      expires_at: now + this.ttlMs,
    };
    await this.store.insertAdminSession(session);
    return { id, csrfToken: csrfTokenOf(id), expiresAt: session.expires_at };
  }

  /** The live session with this id; undefined when unknown, expired or malformed. Rejects on a store error. */
  async resolve(id: string | undefined): Promise<ResolvedSession | undefined> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return undefined;
    const session = await this.store.getAdminSession(sha256(id));
    if (!session || session.expires_at <= this.now()) return undefined;
    return {
      identity: { actor: session.actor, role: session.role, teams: session.teams, method: session.method },
      csrfToken: csrfTokenOf(id),
      expiresAt: session.expires_at,
    };
  }

  /** Ends a session (sign-out) on every replica sharing the store. */
  async close(id: string): Promise<void> {
    await this.store.deleteAdminSession(sha256(id));
  }
}

/** The CSRF token of session `id`: HMAC-SHA256 (base64url) of a fixed label under the id. */
export function csrfTokenOf(id: string): string {
  return createHmac('sha256', id).update('switchyard console csrf').digest('base64url');
}

/** Compares a sent CSRF token with the session's in constant time. */
export function csrfTokenMatches(sent: string | undefined, expected: string): boolean {
  if (!sent) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
