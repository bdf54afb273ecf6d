import type { RealtimeEvent } from '@switchyard/core';
import { errorEvent, isRecord, realtimeId, refuse } from './gemini-live-events.js';

/** One conversation turn of Gemini Live's `clientContent.turns`. */
export interface GeminiLiveTurn {
  role: 'user' | 'model';
  parts: { text: string }[];
}

/** One entry of Gemini Live's `toolResponse.functionResponses`. */
export interface GeminiLiveFunctionResponse {
  id: string;
  name: string;
  response: Record<string, unknown>;
}

/**
 * What a `conversation.item.create` becomes: a turn to send with the next `response.create`, a function response to
 * send at once, or a refusal (an `error` event); `added` are the `conversation.item.added`/`.done` events to send the
 * client for an accepted item.
 */
export type GeminiLiveItem =
  | { turn: GeminiLiveTurn; added: RealtimeEvent[] }
  | { functionResponse: GeminiLiveFunctionResponse; added: RealtimeEvent[] }
  | { refusal: RealtimeEvent };

const TEXT_CONTENT = new Set(['input_text', 'text', 'output_text']);

/** The acknowledgements of an accepted item (`conversation.item.added`, then `conversation.item.done`). */
function addedEvents(item: Record<string, unknown>, itemId: string): RealtimeEvent[] {
  const shown = { ...item, id: itemId, object: 'realtime.item', status: 'completed' };
  return [
    { type: 'conversation.item.added', event_id: realtimeId('event'), previous_item_id: null, item: shown },
    { type: 'conversation.item.done', event_id: realtimeId('event'), previous_item_id: null, item: shown },
  ];
}

/** A `function_call_output` item as Gemini's function response (its `output` parsed as JSON when it is JSON). */
function functionResponse(item: Record<string, unknown>, callNames: ReadonlyMap<string, string>) {
  const callId = String(item.call_id ?? '');
  let response: unknown = item.output;
  try {
    response = JSON.parse(String(item.output));
  } catch {}
  return {
    id: callId,
    name: callNames.get(callId) ?? '',
    response: isRecord(response) ? response : { output: response },
  };
}

/**
 * Reads a client's `conversation.item.create` `item` for Gemini Live: user and assistant `message` items of text
 * content (`input_text`, `text`, `output_text`) become turns (`assistant` -> `model`); `function_call_output` becomes a
 * function response named after the call (`callNames`: call id -> function name, from the calls relayed so far).
 * Refused with an `error` event: a missing item, non-text content, system messages (instructions go in
 * `session.update`), and any other item type.
 * @see https://platform.openai.com/docs/api-reference/realtime-client-events/conversation/item/create
 * @see https://ai.google.dev/api/live#bidigeneratecontentclientcontent
 */
export function readClientItem(
  item: unknown,
  causedBy: string | undefined,
  callNames: ReadonlyMap<string, string>,
): GeminiLiveItem {
  if (!isRecord(item))
    return {
      refusal: errorEvent(
        'invalid_request_error',
        'invalid_value',
        'conversation.item.create needs an `item` object.',
        causedBy ?? null,
        'item',
      ),
    };
  const itemId = typeof item.id === 'string' ? item.id : realtimeId('item');
  if (item.type === 'function_call_output')
    return { functionResponse: functionResponse(item, callNames), added: addedEvents(item, itemId) };
  const role = item.role;
  if (
    item.type !== 'message' ||
    (role !== 'user' && role !== 'assistant' && role !== 'system') ||
    !Array.isArray(item.content)
  )
    return {
      refusal: refuse(`Conversation items of type '${String(item.type)}' do not map to Gemini Live.`, causedBy),
    };
  const parts: { text: string }[] = [];
  for (const content of item.content) {
    if (isRecord(content) && typeof content.text === 'string' && TEXT_CONTENT.has(String(content.type)))
      parts.push({ text: content.text });
    else
      return {
        refusal: refuse(
          `Only text content maps to Gemini Live conversation items (got '${isRecord(content) ? String(content.type) : typeof content}'); send audio with input_audio_buffer.append.`,
          causedBy,
        ),
      };
  }
  if (role === 'system')
    return {
      refusal: refuse(
        'System messages map to Gemini Live only as session instructions (session.update before the conversation).',
        causedBy,
      ),
    };
  return { turn: { role: role === 'assistant' ? 'model' : 'user', parts }, added: addedEvents(item, itemId) };
}
