import type { ResponseStore, StoredResponse } from './response-store.js';

/**
 * A {@link ResponseStore} in process memory, bounded: at most `maxEntries` records (default 1,000); the oldest are
 * dropped first, and expired ones are skipped and dropped. Lost on restart; used when the gateway has no accounts store.
 */
export class MemoryResponseStore implements ResponseStore {
  readonly #records = new Map<string, StoredResponse>();

  constructor(readonly maxEntries = 1000) {}

  async putResponse(record: StoredResponse): Promise<void> {
    this.#records.delete(record.id);
    this.#records.set(record.id, structuredClone(record));
    const now = Date.now();
    for (const [id, entry] of this.#records) {
      if (this.#records.size <= this.maxEntries && entry.expires_at > now) break;
      this.#records.delete(id);
    }
  }

  async getResponse(id: string, owner: string): Promise<StoredResponse | undefined> {
    const record = this.#records.get(id);
    if (!record || record.owner !== owner) return undefined;
    if (record.expires_at <= Date.now()) {
      this.#records.delete(id);
      return undefined;
    }
    return structuredClone(record);
  }

  async deleteResponse(id: string, owner: string): Promise<boolean> {
    const record = this.#records.get(id);
    if (!record || record.owner !== owner) return false;
    this.#records.delete(id);
    return record.expires_at > Date.now();
  }

  /** Records held right now (expired ones not yet dropped included). */
  get size(): number {
    return this.#records.size;
  }
}
