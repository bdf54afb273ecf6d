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

/**
 * The team, organisation and console-session methods of an `AccountStore`, delegated to the tables a store builds
 * in its own dialect (`teamTable`, `organizationTable`, `sessionTable`). A store extends this class and writes the
 * rest (keys, the ledger, the audit log); the SQLite and Postgres stores do.
 */
export abstract class TableBackedAccountStore implements AdminSessionStore {
  /** The store's table of teams. */
  protected abstract get teamTable(): RecordTable<Team>;
  /** The store's table of organisations. */
  protected abstract get organizationTable(): RecordTable<Organization>;
  /** The store's console sessions. */
  protected abstract get sessionTable(): AdminSessionStore;

  listTeams(): Promise<Team[]> {
    return this.teamTable.list();
  }
  getTeam(id: string): Promise<Team | undefined> {
    return this.teamTable.get(id);
  }
  insertTeam(team: Team): Promise<void> {
    return this.teamTable.insert(team);
  }
  updateTeam(team: Team): Promise<void> {
    return this.teamTable.update(team);
  }
  deleteTeam(id: string): Promise<void> {
    return this.teamTable.delete(id);
  }

  listOrganizations(): Promise<Organization[]> {
    return this.organizationTable.list();
  }
  getOrganization(id: string): Promise<Organization | undefined> {
    return this.organizationTable.get(id);
  }
  insertOrganization(organization: Organization): Promise<void> {
    return this.organizationTable.insert(organization);
  }
  updateOrganization(organization: Organization): Promise<void> {
    return this.organizationTable.update(organization);
  }
  deleteOrganization(id: string): Promise<void> {
    return this.organizationTable.delete(id);
  }

  insertAdminSession(session: AdminSession): Promise<void> {
    return this.sessionTable.insertAdminSession(session);
  }
  getAdminSession(idHash: string): Promise<AdminSession | undefined> {
    return this.sessionTable.getAdminSession(idHash);
  }
  deleteAdminSession(idHash: string): Promise<void> {
    return this.sessionTable.deleteAdminSession(idHash);
  }
  deleteExpiredAdminSessions(now: number): Promise<number> {
    return this.sessionTable.deleteExpiredAdminSessions(now);
  }
}
