import {
  MemoryResponseStore,
  type ResponseStore,
  ResponsesFrontDoor,
  type StoredResponse,
} from '@switchyard/front-door-responses';
import type { GatewayConfig } from '../config/config-schema.js';
import { accountsEnabled, sqlitePath } from './open-accounts.js';

/** The Responses API front door plus a way to close its store. */
export interface OpenedResponses {
  frontDoor: ResponsesFrontDoor;
  close(): Promise<void>;
}

/**
 * The Responses front door with its store: with accounts (`admin` or `store` configured) stored responses go to the
 * accounts store (Postgres for `store.postgres`, else the SQLite file), otherwise to a bounded in-memory store
 * (`responses.max_in_memory` records, `responses.memory_bytes` bytes). Every store keeps at most
 * `responses.max_stored_bytes_per_key` bytes per key. Records are kept `responses.retention_days` days. Throws when Postgres cannot
 * be reached within `store.timeout_ms`. A store's package (and its driver) is loaded only when it is used.
 */
export async function openResponses(config: GatewayConfig, configPath?: string): Promise<OpenedResponses> {
  const { retention_days, max_in_memory, memory_bytes, max_stored_bytes_per_key: maxBytesPerOwner } = config.responses;
  let store: ResponseStore & { close?: () => Promise<void> };
  if (config.store?.postgres) {
    const { PostgresResponseStore } = await import('@switchyard/store-postgres');
    store = await PostgresResponseStore.open<StoredResponse>({
      connectionString: config.store.postgres,
      timeoutMs: config.store.timeout_ms,
      maxBytesPerOwner,
    });
  } else if (accountsEnabled(config)) {
    const { SqliteResponseStore } = await import('@switchyard/store-sqlite');
    store = new SqliteResponseStore<StoredResponse>(sqlitePath(config, configPath), { maxBytesPerOwner });
  } else {
    store = new MemoryResponseStore({ maxEntries: max_in_memory, maxBytes: memory_bytes, maxBytesPerOwner });
  }
  return {
    frontDoor: new ResponsesFrontDoor({ store, retentionMs: retention_days * 24 * 60 * 60 * 1000 }),
    close: async () => store.close?.(),
  };
}
