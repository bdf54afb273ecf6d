import type {
  ResponseStore as ResponseStoreContract,
  StoredResponse as StoredResponseContract,
} from '@switchyard/accounts/response-store';
import type { StoredInputItem } from './normalize-input-items.js';
import type { OutputItem, ResponseObject } from './response-object.js';

export {
  DEFAULT_MAX_BYTES_PER_OWNER,
  type ResponseStoreLimits,
  storedItemIds,
} from '@switchyard/accounts/response-store';

/**
 * A response kept by a {@link ResponseStore}, with this front door's types: its `response` object and its own input
 * items (with ids). The contract and its docs live beside the account store's, in `@switchyard/accounts`
 * (`StoredResponse`); the conversation before it is rebuilt by {@link loadConversation}.
 */
export type StoredResponse = StoredResponseContract<ResponseObject, StoredInputItem>;

/**
 * Where this front door's stored responses live: `@switchyard/accounts`' `ResponseStore` contract for
 * {@link StoredResponse} records (memory: {@link MemoryResponseStore}; SQLite: `@switchyard/store-sqlite`; Postgres:
 * `@switchyard/store-postgres`, created with this record type, e.g. `new SqliteResponseStore<StoredResponse>(path)`).
 */
export type ResponseStore = ResponseStoreContract<StoredResponse>;

/** The item with id `itemId` in `record` (its output first, then its input items, references excluded). */
export function itemOfResponse(record: StoredResponse, itemId: string): StoredInputItem | OutputItem | undefined {
  return (
    (record.response.output ?? []).find((item) => item.id === itemId) ??
    record.input_items.find((item) => item.id === itemId && (item as { type?: string }).type !== 'item_reference')
  );
}
