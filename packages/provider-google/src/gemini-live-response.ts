import type { RealtimeEvent, RealtimeUsage } from '@switchyard/core';
import { realtimeId } from './gemini-live-events.js';

/** The response being relayed: its ids, what kind of output it has, what was said so far. */
interface OpenResponse {
  id: string;
  itemId: string;
  kind: 'text' | 'audio';
  text: string;
  output: Record<string, unknown>[];
}

/** Most function call names remembered per session (call id -> name, for the `toolResponse` of a call's output). */
const MAX_CALL_NAMES = 256;

/**
 * Builds the OpenAI Realtime server events of the responses of one Gemini Live session: Gemini has no response
 * object, so a response opens (`response.created`) with the first output of a model turn and closes
 * (`response.done`, with the usage reported so far) at `turnComplete`, `interrupted` or a `toolCall`. Its message
 * item gets `response.output_item.added` and `response.content_part.added` before the first delta, and the `.done`
 * events of each at the end; each function call is one complete function call item.
 * @see https://platform.openai.com/docs/api-reference/realtime-server-events
 */
export class GeminiLiveResponses {
  #response?: OpenResponse;
  #usage?: RealtimeUsage;
  /** Call id -> function name of the calls relayed (the last {@link MAX_CALL_NAMES}). */
  readonly callNames = new Map<string, string>();

  /** Keeps the latest usage Gemini reported (its `usageMetadata`), for the next `response.done`. */
  set usage(usage: RealtimeUsage) {
    this.#usage = usage;
  }

  #start(kind: 'text' | 'audio'): RealtimeEvent[] {
    if (this.#response) return [];
    const response: OpenResponse = { id: realtimeId('resp'), itemId: realtimeId('item'), kind, text: '', output: [] };
    this.#response = response;
    return [
      {
        type: 'response.created',
        event_id: realtimeId('event'),
        response: { object: 'realtime.response', id: response.id, status: 'in_progress', output: [], usage: null },
      },
    ];
  }

  /**
   * One text or audio delta of the response's message item (the response and the item opened on its first delta):
   * `type` is `response.output_text.delta`, `response.output_audio.delta` (base64 PCM16) or
   * `response.output_audio_transcript.delta`.
   */
  delta(kind: 'text' | 'audio', type: string, delta: string): RealtimeEvent[] {
    const events = this.#start(kind);
    const response = this.#response!;
    const ids = {
      response_id: response.id,
      item_id: response.itemId,
      output_index: response.output.length,
      content_index: 0,
    };
    if (!response.output.some((o) => o.id === response.itemId)) {
      const item = {
        id: response.itemId,
        object: 'realtime.item',
        type: 'message',
        role: 'assistant',
        status: 'in_progress',
        content: [],
      };
      response.output.push(item);
      events.push({
        type: 'response.output_item.added',
        event_id: realtimeId('event'),
        response_id: response.id,
        output_index: ids.output_index,
        item,
      });
      events.push({
        type: 'response.content_part.added',
        event_id: realtimeId('event'),
        ...ids,
        part: kind === 'audio' ? { type: 'output_audio', transcript: '' } : { type: 'output_text', text: '' },
      });
    }
    if (type !== 'response.output_audio.delta') response.text += delta;
    events.push({ type, event_id: realtimeId('event'), ...ids, delta });
    return events;
  }

  /** One function call of the model (`args`: its arguments object) as a complete `function_call` item. */
  functionCall(kind: 'text' | 'audio', callId: string, name: string, args: Record<string, unknown>): RealtimeEvent[] {
    const events = this.#start(kind);
    const response = this.#response!;
    this.callNames.set(callId, name);
    if (this.callNames.size > MAX_CALL_NAMES) this.callNames.delete(this.callNames.keys().next().value as string);
    const itemId = realtimeId('item');
    const argumentsText = JSON.stringify(args);
    const outputIndex = response.output.length;
    const item = {
      id: itemId,
      object: 'realtime.item',
      type: 'function_call',
      status: 'completed',
      name,
      call_id: callId,
      arguments: argumentsText,
    };
    response.output.push(item);
    const ids = { response_id: response.id, item_id: itemId, output_index: outputIndex, call_id: callId };
    const event = (type: string, fields: Record<string, unknown>) => ({
      type,
      event_id: realtimeId('event'),
      ...fields,
    });
    events.push(
      event('response.output_item.added', {
        response_id: response.id,
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', arguments: '' },
      }),
      event('response.function_call_arguments.delta', { ...ids, delta: argumentsText }),
      event('response.function_call_arguments.done', { ...ids, name, arguments: argumentsText }),
      event('response.output_item.done', { response_id: response.id, output_index: outputIndex, item }),
    );
    return events;
  }

  /** The `.done` events of the response's message item (text or audio part), its status set from `status`. */
  #closeMessage(response: OpenResponse, status: 'completed' | 'cancelled'): RealtimeEvent[] {
    const message = response.output.find((o) => o.id === response.itemId);
    if (!message) return [];
    const events: RealtimeEvent[] = [];
    const index = response.output.indexOf(message);
    const ids = { response_id: response.id, item_id: response.itemId, output_index: index, content_index: 0 };
    const part =
      response.kind === 'audio'
        ? { type: 'output_audio', transcript: response.text }
        : { type: 'output_text', text: response.text };
    if (response.kind === 'audio') {
      events.push({ type: 'response.output_audio.done', event_id: realtimeId('event'), ...ids });
      events.push({
        type: 'response.output_audio_transcript.done',
        event_id: realtimeId('event'),
        ...ids,
        transcript: response.text,
      });
    } else
      events.push({ type: 'response.output_text.done', event_id: realtimeId('event'), ...ids, text: response.text });
    events.push({ type: 'response.content_part.done', event_id: realtimeId('event'), ...ids, part });
    Object.assign(message, { status: status === 'completed' ? 'completed' : 'incomplete', content: [part] });
    events.push({
      type: 'response.output_item.done',
      event_id: realtimeId('event'),
      response_id: response.id,
      output_index: index,
      item: message,
    });
    return events;
  }

  /** Closes the open response, if any: its message item's `.done` events, then `response.done` with the usage. */
  finish(status: 'completed' | 'cancelled'): RealtimeEvent[] {
    const response = this.#response;
    if (!response) return [];
    this.#response = undefined;
    const events = this.#closeMessage(response, status);
    const usage = this.#usage;
    this.#usage = undefined;
    events.push({
      type: 'response.done',
      event_id: realtimeId('event'),
      response: { object: 'realtime.response', id: response.id, status, output: response.output, usage: usage ?? null },
    });
    return events;
  }
}
