import { randomUUID } from 'node:crypto';
import {
  type RealtimeEvent,
  type RealtimeTranslation,
  type RealtimeTranslator,
  type RealtimeUsage,
  realtimeErrorEvent,
} from '@switchyard/core';
import { type GeminiLiveServerMessage, geminiLiveServerMessageSchema } from './gemini-live-api.js';
import { type GeminiLiveSession, geminiLiveSetup, readSessionUpdate } from './gemini-live-setup.js';
import { mapGeminiLiveUsage } from './map-gemini-live-usage.js';

/** The input audio Gemini Live takes: PCM16 mono at 16 kHz. */
export const GEMINI_LIVE_INPUT_AUDIO = 'audio/pcm;rate=16000';

/** The response being relayed: its ids, what kind of output it has, what was said so far. */
interface OpenResponse {
  id: string;
  itemId: string;
  kind: 'text' | 'audio';
  text: string;
  output: Record<string, unknown>[];
}

const id = (prefix: string) => `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** An `error` event as a {@link RealtimeEvent}. */
const errorEvent = (...args: Parameters<typeof realtimeErrorEvent>): RealtimeEvent => ({
  ...realtimeErrorEvent(...args),
});
const refuse = (message: string, causedBy?: string) =>
  errorEvent('invalid_request_error', 'unsupported_event', message, causedBy ?? null);

/**
 * OpenAI Realtime events <-> Gemini Live (`BidiGenerateContent`) for one session; see docs/realtime.md for the table
 * of what maps and what is refused. The `setup` is sent with the first event that needs the upstream (so that a first
 * `session.update` shapes it); a `session.update` after that is refused, as Gemini fixes a session at its start.
 * Client: `conversation.item.create` (user or assistant `input_text`/`text`, `function_call_output`) ->
 * `clientContent` turns (sent with `turnComplete` at `response.create`) or `toolResponse`;
 * `input_audio_buffer.append` -> `realtimeInput.audio` (PCM16 16 kHz); `.commit` -> `realtimeInput.audioStreamEnd`.
 * Server: text and inline audio parts -> `response.output_text.delta` / `response.output_audio.delta`,
 * `outputTranscription` -> `response.output_audio_transcript.delta`, `toolCall` -> function call items,
 * `turnComplete` / `interrupted` -> `response.done` (`completed` / `cancelled`) with `usageMetadata` as its usage.
 * @see https://ai.google.dev/api/live
 */
export class GeminiLiveTranslator implements RealtimeTranslator {
  #session: GeminiLiveSession = { modality: 'audio', tools: [] };
  #setupSent = false;
  #turns: { role: 'user' | 'model'; parts: { text: string }[] }[] = [];
  #response?: OpenResponse;
  #usage?: RealtimeUsage;
  readonly #callNames = new Map<string, string>();
  readonly #sessionId = id('sess');

  constructor(private readonly model: string) {}

  open(): RealtimeTranslation {
    return { upstream: [], client: [{ type: 'session.created', event_id: id('event'), session: this.#sessionView() }] };
  }

  #sessionView(): Record<string, unknown> {
    return {
      type: 'realtime',
      object: 'realtime.session',
      id: this.#sessionId,
      model: this.model,
      output_modalities: [this.#session.modality],
      instructions: this.#session.instructions ?? '',
      tools: this.#session.tools.map((tool) => ({ type: 'function', ...tool })),
      audio: {
        input: { format: { type: 'audio/pcm', rate: 16000 } },
        output: { format: { type: 'audio/pcm', rate: 24000 } },
      },
    };
  }

  /** The `setup` first, when it has not been sent yet. */
  #upstream(...messages: string[]): string[] {
    if (this.#setupSent) return messages;
    this.#setupSent = true;
    return [geminiLiveSetup(this.model, this.#session), ...messages];
  }

  fromClient(event: RealtimeEvent): RealtimeTranslation {
    const causedBy = event.event_id;
    switch (event.type) {
      case 'session.update': {
        if (this.#setupSent)
          return {
            upstream: [],
            client: [
              refuse('Gemini Live fixes a session at its start: send session.update before any other event.', causedBy),
            ],
          };
        const { session, refused } = readSessionUpdate(event.session, this.#session);
        this.#session = session;
        return {
          upstream: [],
          client: [
            { type: 'session.updated', event_id: id('event'), session: this.#sessionView() },
            ...refused.map((what) => refuse(`Not mapped to Gemini Live, ignored: ${what}.`, causedBy)),
          ],
        };
      }
      case 'conversation.item.create':
        return this.#itemCreate(event.item, causedBy);
      case 'input_audio_buffer.append':
        if (typeof event.audio !== 'string')
          return {
            upstream: [],
            client: [
              errorEvent(
                'invalid_request_error',
                'invalid_value',
                'input_audio_buffer.append needs `audio` (base64 PCM16, 16 kHz, mono).',
                causedBy ?? null,
                'audio',
              ),
            ],
          };
        return {
          upstream: this.#upstream(
            JSON.stringify({ realtimeInput: { audio: { data: event.audio, mimeType: GEMINI_LIVE_INPUT_AUDIO } } }),
          ),
          client: [],
        };
      case 'input_audio_buffer.commit': {
        const itemId = id('item');
        return {
          upstream: this.#upstream(JSON.stringify({ realtimeInput: { audioStreamEnd: true } })),
          client: [
            { type: 'input_audio_buffer.committed', event_id: id('event'), previous_item_id: null, item_id: itemId },
            {
              type: 'conversation.item.added',
              event_id: id('event'),
              previous_item_id: null,
              item: {
                id: itemId,
                object: 'realtime.item',
                type: 'message',
                role: 'user',
                status: 'completed',
                content: [{ type: 'input_audio', transcript: null }],
              },
            },
          ],
        };
      }
      case 'response.create': {
        const turns = this.#turns;
        this.#turns = [];
        // Without new turns the model answers by itself (after audio, or a tool response): nothing to send.
        return {
          upstream:
            turns.length > 0
              ? this.#upstream(JSON.stringify({ clientContent: { turns, turnComplete: true } }))
              : this.#upstream(),
          client: [],
        };
      }
      default:
        return {
          upstream: [],
          client: [refuse(`The event '${event.type}' has no Gemini Live equivalent and was not sent.`, causedBy)],
        };
    }
  }

  #itemCreate(item: unknown, causedBy: string | undefined): RealtimeTranslation {
    if (!isRecord(item))
      return {
        upstream: [],
        client: [
          errorEvent(
            'invalid_request_error',
            'invalid_value',
            'conversation.item.create needs an `item` object.',
            causedBy ?? null,
            'item',
          ),
        ],
      };
    const itemId = typeof item.id === 'string' ? item.id : id('item');
    const added = (): RealtimeEvent[] => {
      const shown = { ...item, id: itemId, object: 'realtime.item', status: 'completed' };
      return [
        { type: 'conversation.item.added', event_id: id('event'), previous_item_id: null, item: shown },
        { type: 'conversation.item.done', event_id: id('event'), previous_item_id: null, item: shown },
      ];
    };
    if (item.type === 'function_call_output') {
      const callId = String(item.call_id ?? '');
      let response: unknown = item.output;
      try {
        response = JSON.parse(String(item.output));
      } catch {}
      const functionResponse = {
        id: callId,
        name: this.#callNames.get(callId) ?? '',
        response: isRecord(response) ? response : { output: response },
      };
      return {
        upstream: this.#upstream(JSON.stringify({ toolResponse: { functionResponses: [functionResponse] } })),
        client: added(),
      };
    }
    if (
      item.type === 'message' &&
      (item.role === 'user' || item.role === 'assistant' || item.role === 'system') &&
      Array.isArray(item.content)
    ) {
      const parts: { text: string }[] = [];
      for (const content of item.content) {
        if (
          isRecord(content) &&
          typeof content.text === 'string' &&
          ['input_text', 'text', 'output_text'].includes(String(content.type))
        )
          parts.push({ text: content.text });
        else
          return {
            upstream: [],
            client: [
              refuse(
                `Only text content maps to Gemini Live conversation items (got '${isRecord(content) ? String(content.type) : typeof content}'); send audio with input_audio_buffer.append.`,
                causedBy,
              ),
            ],
          };
      }
      if (item.role === 'system')
        return {
          upstream: [],
          client: [
            refuse(
              'System messages map to Gemini Live only as session instructions (session.update before the conversation).',
              causedBy,
            ),
          ],
        };
      this.#turns.push({ role: item.role === 'assistant' ? 'model' : 'user', parts });
      return { upstream: [], client: added() };
    }
    return {
      upstream: [],
      client: [refuse(`Conversation items of type '${String(item.type)}' do not map to Gemini Live.`, causedBy)],
    };
  }

  fromUpstream(text: string): RealtimeTranslation {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = geminiLiveServerMessageSchema.safeParse(json);
    if (!parsed.success)
      return {
        upstream: [],
        client: [
          errorEvent(
            'server_error',
            'upstream_invalid_response',
            'Gemini Live sent a message that is not of its documented shape; it was dropped.',
          ),
        ],
      };
    return { upstream: [], client: this.#serverMessage(parsed.data) };
  }

  #serverMessage(message: GeminiLiveServerMessage): RealtimeEvent[] {
    const events: RealtimeEvent[] = [];
    if (message.usageMetadata) this.#usage = mapGeminiLiveUsage(message.usageMetadata);
    const content = message.serverContent;
    if (content) {
      for (const part of content.modelTurn?.parts ?? []) {
        if (part.inlineData?.mimeType?.startsWith('audio/'))
          events.push(...this.#delta('audio', 'response.output_audio.delta', part.inlineData.data));
        else if (part.text !== undefined && this.#session.modality === 'text')
          events.push(...this.#delta('text', 'response.output_text.delta', part.text));
      }
      if (content.outputTranscription?.text)
        events.push(
          ...this.#delta('audio', 'response.output_audio_transcript.delta', content.outputTranscription.text),
        );
      if (content.inputTranscription?.text)
        events.push({
          type: 'conversation.item.input_audio_transcription.delta',
          event_id: id('event'),
          item_id: null,
          content_index: 0,
          delta: content.inputTranscription.text,
        });
      if (content.interrupted) events.push(...this.#finish('cancelled'));
      if (content.turnComplete) events.push(...this.#finish('completed'));
    }
    for (const call of message.toolCall?.functionCalls ?? [])
      events.push(...this.#functionCall(call.id ?? id('call'), call.name, call.args ?? {}));
    if (message.toolCall) events.push(...this.#finish('completed'));
    if (message.goAway)
      events.push(
        errorEvent(
          'server_error',
          'upstream_going_away',
          `Gemini Live will end this session soon (time left: ${message.goAway.timeLeft ?? 'unknown'}).`,
        ),
      );
    return events;
  }

  #start(kind: 'text' | 'audio'): RealtimeEvent[] {
    if (this.#response) return [];
    const response: OpenResponse = { id: id('resp'), itemId: id('item'), kind, text: '', output: [] };
    this.#response = response;
    return [
      {
        type: 'response.created',
        event_id: id('event'),
        response: { object: 'realtime.response', id: response.id, status: 'in_progress', output: [], usage: null },
      },
    ];
  }

  /** One text or audio delta of the response's message item (opened on its first delta). */
  #delta(kind: 'text' | 'audio', type: string, delta: string): RealtimeEvent[] {
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
        event_id: id('event'),
        response_id: response.id,
        output_index: ids.output_index,
        item,
      });
      events.push({
        type: 'response.content_part.added',
        event_id: id('event'),
        ...ids,
        part: kind === 'audio' ? { type: 'output_audio', transcript: '' } : { type: 'output_text', text: '' },
      });
    }
    if (type !== 'response.output_audio.delta') response.text += delta;
    events.push({ type, event_id: id('event'), ...ids, delta });
    return events;
  }

  #functionCall(callId: string, name: string, args: Record<string, unknown>): RealtimeEvent[] {
    const events = this.#start(this.#session.modality);
    const response = this.#response!;
    this.#callNames.set(callId, name);
    if (this.#callNames.size > 256) this.#callNames.delete(this.#callNames.keys().next().value as string);
    const itemId = id('item');
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
    events.push({
      type: 'response.output_item.added',
      event_id: id('event'),
      response_id: response.id,
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', arguments: '' },
    });
    events.push({
      type: 'response.function_call_arguments.delta',
      event_id: id('event'),
      ...ids,
      delta: argumentsText,
    });
    events.push({
      type: 'response.function_call_arguments.done',
      event_id: id('event'),
      ...ids,
      name,
      arguments: argumentsText,
    });
    events.push({
      type: 'response.output_item.done',
      event_id: id('event'),
      response_id: response.id,
      output_index: outputIndex,
      item,
    });
    return events;
  }

  /** Closes the open response (message item parts, then `response.done` with the usage reported so far). */
  #finish(status: 'completed' | 'cancelled'): RealtimeEvent[] {
    const response = this.#response;
    if (!response) return [];
    this.#response = undefined;
    const events: RealtimeEvent[] = [];
    const message = response.output.find((o) => o.id === response.itemId);
    if (message) {
      const index = response.output.indexOf(message);
      const ids = { response_id: response.id, item_id: response.itemId, output_index: index, content_index: 0 };
      const part =
        response.kind === 'audio'
          ? { type: 'output_audio', transcript: response.text }
          : { type: 'output_text', text: response.text };
      if (response.kind === 'audio') {
        events.push({ type: 'response.output_audio.done', event_id: id('event'), ...ids });
        events.push({
          type: 'response.output_audio_transcript.done',
          event_id: id('event'),
          ...ids,
          transcript: response.text,
        });
      } else events.push({ type: 'response.output_text.done', event_id: id('event'), ...ids, text: response.text });
      events.push({ type: 'response.content_part.done', event_id: id('event'), ...ids, part });
      Object.assign(message, { status: status === 'completed' ? 'completed' : 'incomplete', content: [part] });
      events.push({
        type: 'response.output_item.done',
        event_id: id('event'),
        response_id: response.id,
        output_index: index,
        item: message,
      });
    }
    const usage = this.#usage;
    this.#usage = undefined;
    events.push({
      type: 'response.done',
      event_id: id('event'),
      response: { object: 'realtime.response', id: response.id, status, output: response.output, usage: usage ?? null },
    });
    return events;
  }
}
