import {
  DEFAULT_MAX_BYTES_PER_OWNER,
  type ResponseStore,
  type ResponseStoreLimits,
  type StoredResponse,
  storedItemIds,
} from './response-store.js';

/** Options of {@link MemoryResponseStore}. */
export interface MemoryResponseStoreOptions {
  /** Most records kept (default 1,000). */
  maxEntries?: number;
  /** Most bytes kept, all owners together (the records' JSON, UTF-8; default 256 MiB). */
  maxBytes?: number;
  /** Most bytes one owner may keep (default 64 MiB). */
  maxBytesPerOwner?: number;
}

/** A record as kept: its JSON (one compact copy) and what the store needs without parsing it. */
interface Entry {
  owner: string;
  expires_at: number;
  previous_response_id: string | null;
  bytes: number;
  itemIds: string[];
  json: string;
}

/** Default {@link MemoryResponseStoreOptions.maxBytes}: 256 MiB. */
export const DEFAULT_MEMORY_STORE_BYTES = 256 * 1024 * 1024;

const itemKey = (owner: string, itemId: string) => `${owner}\u0000${itemId}`;

/**
 * A {@link ResponseStore} in process memory, bounded by count (`maxEntries`, default 1,000), by bytes (`maxBytes`,
 * default 256 MiB, all owners together) and by bytes per owner (`maxBytesPerOwner`, default 64 MiB). Each record is
 * kept once, as its JSON; the oldest records are dropped first (an owner's own oldest when that owner is over its
 * quota), expired ones whenever met. Lost on restart; used when the gateway has no accounts store.
 */
export class MemoryResponseStore implements ResponseStore {
  readonly limits: ResponseStoreLimits;
  readonly maxEntries: number;
  readonly maxBytes: number;
  /** Records in insertion order (oldest first). */
  readonly #entries = new Map<string, Entry>();
  /** `owner \0 itemId` -> the newest response id holding that item. */
  readonly #items = new Map<string, string>();
  readonly #ownerBytes = new Map<string, number>();
  #bytes = 0;

  /** `options` may be a number: `maxEntries` (the older signature). */
  constructor(options: MemoryResponseStoreOptions | number = {}) {
    const settings = typeof options === 'number' ? { maxEntries: options } : options;
    this.maxEntries = settings.maxEntries ?? 1000;
    this.maxBytes = settings.maxBytes ?? DEFAULT_MEMORY_STORE_BYTES;
    this.limits = {
      maxBytesPerOwner: Math.min(settings.maxBytesPerOwner ?? DEFAULT_MAX_BYTES_PER_OWNER, this.maxBytes),
    };
  }

  async putResponse(record: StoredResponse): Promise<boolean> {
    const json = JSON.stringify(record);
    const bytes = Buffer.byteLength(json);
    this.#remove(record.id);
    if (bytes > this.limits.maxBytesPerOwner) return false;
    const entry: Entry = {
      owner: record.owner,
      expires_at: record.expires_at,
      previous_response_id: record.previous_response_id ?? null,
      bytes,
      itemIds: storedItemIds(record),
      json,
    };
    this.#entries.set(record.id, entry);
    this.#bytes += bytes;
    this.#ownerBytes.set(record.owner, (this.#ownerBytes.get(record.owner) ?? 0) + bytes);
    for (const itemId of entry.itemIds) this.#items.set(itemKey(record.owner, itemId), record.id);
    this.#extendChain(entry);
    this.#evict(record.id, record.owner);
    return true;
  }

  async getResponse(id: string, owner: string): Promise<StoredResponse | undefined> {
    const entry = this.#live(id, owner);
    return entry && (JSON.parse(entry.json) as StoredResponse);
  }

  async findResponseWithItem(itemId: string, owner: string): Promise<StoredResponse | undefined> {
    const id = this.#items.get(itemKey(owner, itemId));
    return id === undefined ? undefined : this.getResponse(id, owner);
  }

  async deleteResponse(id: string, owner: string): Promise<boolean> {
    const entry = this.#entries.get(id);
    if (!entry || entry.owner !== owner) return false;
    this.#remove(id);
    return entry.expires_at > Date.now();
  }

  /** Records held right now (expired ones not yet dropped included). */
  get size(): number {
    return this.#entries.size;
  }

  /** Bytes held right now (the records' JSON, UTF-8), all owners together. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The owner's unexpired entry; an expired one is dropped. */
  #live(id: string, owner: string): Entry | undefined {
    const entry = this.#entries.get(id);
    if (!entry || entry.owner !== owner) return undefined;
    if (entry.expires_at <= Date.now()) {
      this.#remove(id);
      return undefined;
    }
    return entry;
  }

  /** Keeps every response `entry` continues from at least as long as `entry`. */
  #extendChain(entry: Entry): void {
    const seen = new Set<string>();
    for (let id = entry.previous_response_id; id !== null && !seen.has(id); ) {
      seen.add(id);
      const previous = this.#live(id, entry.owner);
      if (!previous) return;
      previous.expires_at = Math.max(previous.expires_at, entry.expires_at);
      id = previous.previous_response_id;
    }
  }

  /** Drops expired records met from the oldest, then the oldest while over a bound (never `keep`). */
  #evict(keep: string, owner: string): void {
    const now = Date.now();
    for (const [id, entry] of this.#entries) {
      if (id === keep) continue;
      const over = this.#entries.size > this.maxEntries || this.#bytes > this.maxBytes;
      if (!over && entry.expires_at > now) break;
      this.#remove(id);
    }
    if ((this.#ownerBytes.get(owner) ?? 0) <= this.limits.maxBytesPerOwner) return;
    for (const [id, entry] of this.#entries) {
      if (id === keep || entry.owner !== owner) continue;
      this.#remove(id);
      if ((this.#ownerBytes.get(owner) ?? 0) <= this.limits.maxBytesPerOwner) return;
    }
  }

  #remove(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#bytes -= entry.bytes;
    const left = (this.#ownerBytes.get(entry.owner) ?? 0) - entry.bytes;
    if (left > 0) this.#ownerBytes.set(entry.owner, left);
    else this.#ownerBytes.delete(entry.owner);
    for (const itemId of entry.itemIds) {
      const key = itemKey(entry.owner, itemId);
      if (this.#items.get(key) === id) this.#items.delete(key);
    }
  }
}
