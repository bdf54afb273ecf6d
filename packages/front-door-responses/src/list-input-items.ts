import { invalidRequestError } from '@switchyard/core';
import type { StoredInputItem } from './normalize-input-items.js';

/** Query of `GET /v1/responses/{id}/input_items`: `order` (`desc` default), `limit` (1..100, default 20), `after` (an item id). */
export interface InputItemsQuery {
  order?: unknown;
  limit?: unknown;
  after?: unknown;
}

/** A page of input items (ResponseItemList). */
export interface ResponseItemList {
  object: 'list';
  data: StoredInputItem[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

/**
 * One page of a response's input items. Throws 400 naming `order` or `limit` when they are invalid.
 * @see https://platform.openai.com/docs/api-reference/responses/input-items
 */
export function listInputItems(items: readonly StoredInputItem[], query: InputItemsQuery): ResponseItemList {
  const order = query.order ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw invalidRequestError("'order' must be 'asc' or 'desc'.", 'order');
  const limit = query.limit === undefined ? 20 : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw invalidRequestError("'limit' must be an integer from 1 to 100.", 'limit');
  let ordered = order === 'asc' ? [...items] : [...items].reverse();
  if (typeof query.after === 'string' && query.after !== '') {
    const at = ordered.findIndex((item) => item.id === query.after);
    ordered = at < 0 ? [] : ordered.slice(at + 1);
  }
  const data = ordered.slice(0, limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: ordered.length > limit,
  };
}
