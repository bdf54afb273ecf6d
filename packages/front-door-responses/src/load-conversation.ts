import { GatewayError, invalidRequestError } from '@switchyard/core';
import type { StoredInputItem } from './normalize-input-items.js';
import type { OutputItem } from './response-object.js';
import { type ResponseStore, itemOfResponse } from './response-store.js';

/** An item of a stored conversation: an input item, or an output item of an earlier response. */
export type StoredItem = StoredInputItem | OutputItem;

/**
 * Resolves the `item_reference` items of `items` (`{"type":"item_reference","id":"..."}`) to the stored items of
 * `owner` with those ids (an output or input item of any of the owner's stored responses); every other item is kept
 * as it is. Looks each id up once. Throws 400 naming `param(index)` when an id is unknown, expired, evicted or
 * another key's (all look the same).
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input (Item reference)
 */
export async function resolveItemReferences<T extends { type?: string; id?: unknown }>(
  items: readonly T[],
  store: ResponseStore,
  owner: string,
  param: (index: number) => string,
  cache = new Map<string, StoredItem | undefined>(),
): Promise<(T | StoredItem)[]> {
  const resolved: (T | StoredItem)[] = [];
  for (const [index, item] of items.entries()) {
    if (item.type !== 'item_reference') {
      resolved.push(item);
      continue;
    }
    const id = typeof item.id === 'string' ? item.id : '';
    if (!cache.has(id)) {
      const record = id === '' ? undefined : await store.findResponseWithItem(id, owner);
      cache.set(id, record && itemOfResponse(record, id));
    }
    const found = cache.get(id);
    if (!found) throw invalidRequestError(`Item with id '${id}' not found.`, param(index), 'item_not_found');
    resolved.push(found);
  }
  return resolved;
}

/**
 * The conversation that `previousResponseId` ends, oldest item first: for each stored response of the chain (found by
 * following `previous_response_id` links back), its input items and then its output items, with `item_reference`
 * items resolved (see {@link resolveItemReferences}). A record written before links existed ends the walk with its
 * own copy of the history. Empty without `previousResponseId`.
 * Throws 400 `previous_response_not_found` naming `previous_response_id` when that response, or one earlier in its
 * chain, is unknown, expired, deleted, evicted (byte limits) or another key's, or when an item it refers to is gone.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-previous_response_id
 */
export async function loadConversation(
  store: ResponseStore,
  previousResponseId: string | null | undefined,
  owner: string,
): Promise<StoredItem[]> {
  if (!previousResponseId) return [];
  const turns: StoredItem[][] = [];
  const seen = new Set<string>();
  for (let id: string | null | undefined = previousResponseId; id && !seen.has(id); ) {
    seen.add(id);
    const record = await store.getResponse(id, owner);
    if (!record) {
      throw invalidRequestError(
        id === previousResponseId
          ? `Previous response with id '${id}' not found.`
          : `Previous response with id '${previousResponseId}' cannot be continued: response '${id}', earlier in its conversation, is no longer stored (deleted, expired, or dropped to keep the response store within its byte limits).`,
        'previous_response_id',
        'previous_response_not_found',
      );
    }
    turns.push([...record.input_items, ...(record.response.output ?? [])]);
    if (record.history) {
      turns.push(record.history);
      break;
    }
    id = record.previous_response_id;
  }
  const items = turns.reverse().flat();
  return resolveItemReferences(items, store, owner, () => 'previous_response_id').catch((error: unknown) => {
    if (GatewayError.isInstance(error) && error.code === 'item_not_found') {
      throw invalidRequestError(
        `Previous response with id '${previousResponseId}' cannot be continued: ${error.message.replace(/\.$/, '')} (an item its conversation refers to is no longer stored).`,
        'previous_response_id',
        'previous_response_not_found',
      );
    }
    throw error;
  });
}
