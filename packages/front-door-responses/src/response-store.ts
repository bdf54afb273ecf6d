import type { StoredInputItem } from './normalize-input-items.js';
import type { OutputItem, ResponseObject } from './response-object.js';

/**
 * A response kept for `GET /v1/responses/{id}`, `input_items` and `previous_response_id`.
 * `owner` identifies the gateway key that created it (a SHA-256 hex digest of the key, never the key).
 * Times are unix milliseconds.
 */
export interface StoredResponse {
  id: string;
  owner: string;
  created_at: number;
  /** When the store may forget it (created_at + retention). */
  expires_at: number;
  response: ResponseObject;
  /** This request's input, with ids. */
  input_items: StoredInputItem[];
  /** Every item of the conversation before this request (from `previous_response_id`), oldest first. */
  history: (StoredInputItem | OutputItem)[];
}

/**
 * Where stored responses live: in memory (bounded, the default without accounts), SQLite
 * (`@switchyard/store-sqlite`), Postgres. Reads filter by owner: another key's response is "not found". Expired
 * records are never returned. Methods may throw the store's own errors (the gateway answers 500).
 */
export interface ResponseStore {
  /** Inserts or replaces a record. */
  putResponse(record: StoredResponse): Promise<void>;
  /** The record when it exists, belongs to `owner` and has not expired. */
  getResponse(id: string, owner: string): Promise<StoredResponse | undefined>;
  /** Deletes the owner's record; true when one was deleted. */
  deleteResponse(id: string, owner: string): Promise<boolean>;
}
