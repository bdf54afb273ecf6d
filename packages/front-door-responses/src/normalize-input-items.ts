import { invalidRequestError } from '@switchyard/core';
import { newId } from './new-id.js';
import {
  HOSTED_TOOL_ITEM_TYPES,
  type ResponsesInputItem,
  type ResponsesRequest,
  responsesInputItemSchema,
} from './responses-request-schema.js';

/**
 * An input item as the gateway stores and lists it (`GET /v1/responses/{id}/input_items`): always with `id`, messages
 * always with `type: "message"`, `status` and content parts.
 */
export type StoredInputItem = ResponsesInputItem & { id: string };

const ID_PREFIX: Record<string, string> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  custom_tool_call: 'ctc',
  custom_tool_call_output: 'ctco',
  reasoning: 'rs',
  additional_tools: 'at',
};

/** `{"type":"item_reference","id":"..."}` as stored; throws 400 naming `input[i].id` without a string id. */
function itemReference(raw: Record<string, unknown>, index: number): StoredInputItem {
  if (typeof raw.id !== 'string' || raw.id === '')
    throw invalidRequestError("An 'item_reference' needs an 'id' (a string).", `input[${index}].id`, 'invalid_value');
  return { type: 'item_reference', id: raw.id } as unknown as StoredInputItem;
}

/**
 * `input` (a string, or items) -> stored input items with ids. A string is one user message with an `input_text` part.
 * An `item_reference` is kept as `{type, id}` (it is resolved from the store when the request runs). Throws 400 naming
 * `input[i]` for an item type the gateway cannot translate (unknown types) or a malformed item.
 * @see https://platform.openai.com/docs/api-reference/responses/create#responses-create-input
 */
export function normalizeInputItems(input: ResponsesRequest['input']): StoredInputItem[] {
  if (typeof input === 'string') {
    return [
      {
        id: newId('msg'),
        type: 'message',
        role: 'user',
        status: 'completed',
        content: [{ type: 'input_text', text: input }],
      },
    ];
  }
  return input.map((raw, index) => {
    if (raw.type === 'item_reference') return itemReference(raw, index);
    const parsed = responsesInputItemSchema.safeParse(raw);
    if (!parsed.success) {
      const type = raw.type ?? 'message';
      const known = type === 'message' || type in ID_PREFIX || HOSTED_TOOL_ITEM_TYPES.has(type);
      throw invalidRequestError(
        known
          ? `Invalid input item at 'input[${index}]': ${parsed.error.issues[0]?.message ?? 'malformed'} (${parsed.error.issues[0]?.path.join('.') ?? ''}).`
          : `Input items of type '${type}' are not supported by this gateway: it translates messages, function and custom tool calls and their outputs, and reasoning and hosted tool call items (dropped).`,
        `input[${index}]`,
        known ? 'invalid_value' : 'unsupported_value',
      );
    }
    const item = parsed.data;
    const type = item.type ?? 'message';
    if (type === 'message' && 'role' in item) {
      const content =
        typeof item.content === 'string'
          ? [
              item.role === 'assistant'
                ? { type: 'output_text' as const, text: item.content, annotations: [] }
                : { type: 'input_text' as const, text: item.content },
            ]
          : item.content;
      return {
        status: 'completed',
        ...item,
        type: 'message',
        content,
        id: item.id ?? newId('msg'),
      } as unknown as StoredInputItem;
    }
    return { ...item, id: item.id ?? newId(ID_PREFIX[type] ?? 'item') } as StoredInputItem;
  });
}
