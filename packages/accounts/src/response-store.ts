/**
 * An item of a stored response as a {@link ResponseStore} sees it: a JSON object (an input item of the Responses API
 * such as a `message` or `function_call_output`, or an output item) of which the store reads only `id` and `type`.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
export interface StoredResponseItem {
  id?: string;
  type?: string;
}

/**
 * The Responses API `response` object as a {@link ResponseStore} sees it: JSON it keeps whole, of which it reads only
 * the ids of the `output` items.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export interface StoredResponseObject {
  output?: readonly StoredResponseItem[];
}

/**
 * A response kept for `GET /v1/responses/{id}`, `input_items`, `previous_response_id` and `item_reference`: its own
 * input and output only, plus a link to the response it continued. The conversation before it is never copied: it is
 * rebuilt by following `previous_response_id` (the Responses front door's `loadConversation`), so storage grows with
 * the new items of each turn, not with the length of the conversation.
 * `owner` identifies the gateway key that created it (a SHA-256 hex digest of the key, never the key).
 * Times are unix milliseconds. `R` and `I` are the front door's types of the response object and of an input item
 * (`@switchyard/front-door-responses` names this type with them); a store keeps and returns the record's JSON as given.
 */
export interface StoredResponse<
  R extends StoredResponseObject = StoredResponseObject,
  I extends StoredResponseItem = StoredResponseItem,
> {
  id: string;
  owner: string;
  created_at: number;
  /** When the store may forget it (created_at + retention; pushed later while a later response continues from it). */
  expires_at: number;
  response: R;
  /** This request's input, with ids (an `item_reference` is kept as the client sent it). */
  input_items: I[];
  /** The stored response this one continued (the request's `previous_response_id`), or null. */
  previous_response_id?: string | null;
  /**
   * Records written before links existed carry a copy of every item of the conversation before them, oldest first.
   * Read only: new records never have it.
   * @deprecated Kept to read old rows.
   */
  history?: (I | NonNullable<R['output']>[number])[];
}

/** Byte limits of a {@link ResponseStore}. */
export interface ResponseStoreLimits {
  /**
   * Most bytes (of the records' JSON, UTF-8) one owner may keep; storing more first drops that owner's oldest
   * records. A single record larger than this is not kept.
   */
  maxBytesPerOwner: number;
}

/**
 * Where stored responses live, beside the {@link AccountStore}: in memory (the Responses front door's
 * `MemoryResponseStore`, bounded in bytes, the default without accounts), SQLite (`@switchyard/store-sqlite`), Postgres
 * (`@switchyard/store-postgres`). Reads filter by owner: another key's response or item is "not found". Expired
 * records are never returned. Every store keeps at most `limits.maxBytesPerOwner` bytes per owner, dropping the owner's
 * oldest records first. Methods may throw the store's own errors (the gateway answers 500). `T` is the record type the
 * caller stores (the front door's `StoredResponse`); a store returns records as they were put.
 */
export interface ResponseStore<T extends StoredResponse = StoredResponse> {
  /** Byte limits the store enforces (the front door refuses up front an input that could never be kept). */
  readonly limits: ResponseStoreLimits;
  /**
   * Inserts or replaces a record; then keeps every response it continues from (its `previous_response_id` chain)
   * at least until the record's `expires_at`, and drops the owner's oldest records while the owner holds more than
   * `limits.maxBytesPerOwner` bytes. Resolves false (keeping nothing) when the record alone is larger than that.
   */
  putResponse(record: T): Promise<boolean>;
  /** The record when it exists, belongs to `owner` and has not expired. */
  getResponse(id: string, owner: string): Promise<T | undefined>;
  /**
   * The newest of `owner`'s unexpired records holding an item with id `itemId`, among its input items (an
   * `item_reference` does not count) and its response's `output`; undefined when there is none.
   */
  findResponseWithItem(itemId: string, owner: string): Promise<T | undefined>;
  /** Deletes the owner's record; true when one was deleted. */
  deleteResponse(id: string, owner: string): Promise<boolean>;
}

/** Default {@link ResponseStoreLimits.maxBytesPerOwner}: 64 MiB. */
export const DEFAULT_MAX_BYTES_PER_OWNER = 64 * 1024 * 1024;

/** The ids a store indexes for {@link ResponseStore.findResponseWithItem}: input items (not references) and output items. */
export function storedItemIds(record: StoredResponse): string[] {
  const ids = new Set<string>();
  for (const item of record.input_items) {
    if (item.type !== 'item_reference' && typeof item.id === 'string') ids.add(item.id);
  }
  for (const item of record.response.output ?? []) if (typeof item.id === 'string') ids.add(item.id);
  return [...ids];
}
