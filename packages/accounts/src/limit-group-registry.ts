import { randomUUID } from 'node:crypto';
import type { GatewayError } from '@switchyard/core';
import { applyLimitChanges, type LimitFields, limitFieldsOf, optionalLimits } from './limit-fields.js';

/** A named group sharing limits over its members: a team (of keys) or an organisation (of teams). */
export interface LimitGroup extends LimitFields {
  id: string;
  name: string;
  metadata: Record<string, unknown> | null;
  /** ISO-8601. */
  created_at: string;
}

/** Where a kind of {@link LimitGroup} is stored (see `AccountStore`). */
export interface LimitGroupTable<T extends LimitGroup> {
  list(): Promise<T[]>;
  get(id: string): Promise<T | undefined>;
  insert(group: T): Promise<void>;
  /** Replaces a stored group (same id). */
  update(group: T): Promise<void>;
  /** Deleting an unknown id does nothing. */
  delete(id: string): Promise<void>;
}

/** What sets one kind of {@link LimitGroup} apart. */
export interface LimitGroupKind<T extends LimitGroup> {
  /** Ids are `<idPrefix>_` and 32 hex digits (`team`, `org`). */
  idPrefix: string;
  table: LimitGroupTable<T>;
  /** The fields of a new group besides the limits, id, name, metadata and creation time (e.g. `organization_id`). */
  extra?: (input: Partial<T>) => Partial<T>;
  /** Checks a create or update body against other records (e.g. that a named organisation exists); throws. */
  check?: (input: Partial<T>) => void;
  /** The 409 for deleting a group that still has `members` members. */
  hasMembers: (id: string, members: number) => GatewayError;
  /** Tells other replicas about a change of the group `id` (see `KeyChangeFeed`). */
  announce: (id: string) => Promise<void>;
}

/** A group as the admin API shows it: every optional limit present (null when unset). */
export function toGroupView<T extends LimitGroup>(group: T): T {
  return { ...group, ...optionalLimits(group) };
}

/**
 * Groups of one kind (teams, organisations), held in memory (a call's admission reads them without a store query)
 * and written through to the store.
 */
export class LimitGroupRegistry<T extends LimitGroup> {
  readonly #groups = new Map<string, T>();
  readonly #kind: LimitGroupKind<T>;

  constructor(kind: LimitGroupKind<T>) {
    this.#kind = kind;
  }

  /** Loads every group from the store (at startup, or when changes may have been missed). */
  async load(): Promise<void> {
    const groups = await this.#kind.table.list();
    this.#groups.clear();
    for (const group of groups) this.#groups.set(group.id, group);
  }

  /** Reloads one group after another replica changed or deleted it. */
  async reload(id: string): Promise<void> {
    const group = await this.#kind.table.get(id);
    if (group) this.#groups.set(id, group);
    else this.#groups.delete(id);
  }

  /** The group, or undefined. */
  get(id: string | null | undefined): T | undefined {
    return id ? this.#groups.get(id) : undefined;
  }

  /** Every group, in creation order, as the admin API shows it. */
  list(): T[] {
    return [...this.#groups.values()].map(toGroupView);
  }

  /** The groups whose field `field` is `value` (e.g. the teams of an organisation). */
  where(field: keyof T, value: unknown): T[] {
    return [...this.#groups.values()].filter((g) => g[field] === value);
  }

  /** Creates a group. Throws what {@link LimitGroupKind.check} throws. */
  async create(input: Partial<T> & { name: string }): Promise<T> {
    this.#kind.check?.(input);
    const group = {
      id: `${this.#kind.idPrefix}_${randomUUID().replaceAll('-', '')}`,
      name: input.name,
      ...limitFieldsOf(input),
      ...this.#kind.extra?.(input),
      metadata: input.metadata ?? null,
      created_at: new Date().toISOString(),
    } as T;
    await this.#kind.table.insert(group);
    this.#groups.set(group.id, group);
    await this.#kind.announce(group.id);
    return toGroupView(group);
  }

  /** Changes a group's fields; limits apply at once. Undefined when there is no such group. */
  async update(id: string, input: Partial<T>): Promise<T | undefined> {
    const current = this.#groups.get(id);
    if (!current) return undefined;
    this.#kind.check?.(input);
    const group = applyLimitChanges(current, input);
    await this.#kind.table.update(group);
    this.#groups.set(id, group);
    await this.#kind.announce(id);
    return toGroupView(group);
  }

  /**
   * Deletes a group. Throws the kind's 409 while `members` members name it (deleting it under them would lift its
   * limits from their calls). Undefined when there is no such group.
   */
  async delete(id: string, members: number): Promise<T | undefined> {
    const group = this.#groups.get(id);
    if (!group) return undefined;
    if (members > 0) throw this.#kind.hasMembers(id, members);
    await this.#kind.table.delete(id);
    this.#groups.delete(id);
    await this.#kind.announce(id);
    return toGroupView(group);
  }
}
