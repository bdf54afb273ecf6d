import { newId } from './new-id.js';
import { type StoredInputItem, normalizeInputItems } from './normalize-input-items.js';
import type { OutputItem } from './response-object.js';
import type { ResponsesRequest } from './responses-request-schema.js';

/**
 * `input` -> input items with ids, for the store (`GET /v1/responses/{id}/input_items`, `previous_response_id`), for a
 * request passed through natively: items the translation understands are normalised as for translation; any other
 * item (built-in tool calls, `item_reference`, …) is kept as sent, with an id when it had none. Never throws: the
 * upstream judges what it accepts.
 */
export function storedNativeInputItems(input: ResponsesRequest['input']): StoredInputItem[] {
  if (typeof input === 'string') return normalizeInputItems(input);
  return input.map((item) => {
    try {
      return normalizeInputItems([item])[0]!;
    } catch {
      const id = (item as { id?: unknown }).id;
      return { ...item, id: typeof id === 'string' ? id : newId('item') } as unknown as StoredInputItem;
    }
  });
}

/**
 * One item of a stored conversation -> an input item for OpenAI's `POST /responses`: messages, function calls and their
 * outputs lose the gateway's ids and statuses (OpenAI would look ids up in its own store); reasoning items are kept only
 * with `encrypted_content` (without it OpenAI cannot use them); any other item is sent as stored.
 */
export function toUpstreamItem(item: StoredInputItem | OutputItem): Record<string, unknown> | undefined {
  const { id: _id, status: _status, ...rest } = item as Record<string, unknown> & { id?: unknown; status?: unknown };
  switch (rest.type ?? 'message') {
    case 'message':
    case 'function_call':
    case 'function_call_output':
      return rest;
    case 'reasoning':
      return typeof rest.encrypted_content === 'string' ? (item as Record<string, unknown>) : undefined;
    default:
      return item as Record<string, unknown>;
  }
}

/**
 * The body to pass through to OpenAI's `POST /responses`: the client's request as it is (unknown fields kept), except
 * that `previous_response_id`, which names a response in the gateway's store (made by any provider), is expanded: its
 * conversation (`history`) is put before `input` and the field is removed. `input`, when given, replaces the request's
 * own (its `item_reference` items resolved from the gateway's store).
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export function nativeRequestBody(
  request: ResponsesRequest,
  history: readonly (StoredInputItem | OutputItem)[],
  input?: readonly unknown[],
): Record<string, unknown> & { model: string } {
  if (!request.previous_response_id) return input === undefined ? { ...request } : { ...request, input: [...input] };
  const { previous_response_id: _previous, ...rest } = request;
  const current =
    input ?? (typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input);
  const earlier = history.map(toUpstreamItem).filter((item) => item !== undefined);
  return { ...rest, input: [...earlier, ...current] };
}
