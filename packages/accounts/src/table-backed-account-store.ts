import type { AdminSession, AdminSessionStore } from './admin-session.js';
import type { Organization } from './organization.js';
import type { Team } from './team.js';

/** One table of records with an `id` (teams, organisations), as an account store keeps it. */
export interface RecordTable<T extends { id: string }> {
  /** Every record, in creation order. */
  list(): Promise<T[]>;
  get(id: string): Promise<T | undefined>;
  /** Rejects when a record with the same id exists. */
  insert(record: T): Promise<void>;
  /** Replaces the stored record with the same id. */
  update(record: T): Promise<void>;
  /** Deleting an unknown id does nothing. */
  delete(id: string): Promise<void>;
}

/** The tables a {@link TableBackedAccountStore} delegates to, built by the store in its own dialect. */
export interface StoreTables {
  teams: RecordTable<Team>;
  organizations: RecordTable<Organization>;
  /** The store's console sessions. */
  sessions: AdminSessionStore;
}

/**
 * The team, organisation and console-session methods of an `AccountStore`, delegated to the tables a store builds
 * in its own dialect and hands over with `useTables` in its constructor. A store extends this class and writes the
 * rest (keys, the ledger, the audit log); the SQLite and Postgres stores do.
 */
export abstract class TableBackedAccountStore implements AdminSessionStore {
  #tables: StoreTables | undefined;

  /** Sets the tables the methods delegate to; a store calls it once, in its constructor. */
  protected useTables(tables: StoreTables): void {
    this.#tables = tables;
  }

  /** The tables; throws when the store has not called `useTables` (a bug of the store). */
  get #t(): StoreTables {
    if (!this.#tables) throw new Error('TableBackedAccountStore: useTables was not called');
    return this.#tables;
  }

  listTeams(): Promise<Team[]> {
    return this.#t.teams.list();
  }
  getTeam(id: string): Promise<Team | undefined> {
    return this.#t.teams.get(id);
  }
  insertTeam(team: Team): Promise<void> {
    return this.#t.teams.insert(team);
  }
  updateTeam(team: Team): Promise<void> {
    return this.#t.teams.update(team);
  }
  deleteTeam(id: string): Promise<void> {
    return this.#t.teams.delete(id);
  }

  listOrganizations(): Promise<Organization[]> {
    return this.#t.organizations.list();
  }
  getOrganization(id: string): Promise<Organization | undefined> {
    return this.#t.organizations.get(id);
  }
  insertOrganization(organization: Organization): Promise<void> {
    return this.#t.organizations.insert(organization);
  }
  updateOrganization(organization: Organization): Promise<void> {
    return this.#t.organizations.update(organization);
  }
  deleteOrganization(id: string): Promise<void> {
    return this.#t.organizations.delete(id);
  }

  insertAdminSession(session: AdminSession): Promise<void> {
    return this.#t.sessions.insertAdminSession(session);
  }
  getAdminSession(idHash: string): Promise<AdminSession | undefined> {
    return this.#t.sessions.getAdminSession(idHash);
  }
  deleteAdminSession(idHash: string): Promise<void> {
    return this.#t.sessions.deleteAdminSession(idHash);
  }
  deleteExpiredAdminSessions(now: number): Promise<number> {
    return this.#t.sessions.deleteExpiredAdminSessions(now);
  }
}
