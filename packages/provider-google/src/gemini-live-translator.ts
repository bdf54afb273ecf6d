import type { RealtimeEvent, RealtimeTranslation, RealtimeTranslator } from '@switchyard/core';
import { type GeminiLiveServerMessage, geminiLiveServerMessageSchema } from './gemini-live-api.js';
import { type GeminiLiveTurn, readClientItem } from './gemini-live-client-items.js';
import { errorEvent, realtimeId as id, refuse } from './gemini-live-events.js';
import { GeminiLiveResponses } from './gemini-live-response.js';
import { type GeminiLiveSession, OPENAI_PCM_RATE, geminiLiveSetup, readSessionUpdate } from './gemini-live-setup.js';
import { mapGeminiLiveUsage } from './map-gemini-live-usage.js';
import { Pcm16Resampler } from './pcm16-resampler.js';

/** The input audio Gemini Live takes: PCM16 mono at 16 kHz. */
export const GEMINI_LIVE_INPUT_AUDIO = 'audio/pcm;rate=16000';
const GEMINI_LIVE_INPUT_RATE = 16_000;

/**
 * OpenAI Realtime events <-> Gemini Live (`BidiGenerateContent`) for one session; see docs/realtime.md for the table
 * of what maps and what is refused. The `setup` is sent with the first event that needs the upstream (so that a first
 * `session.update` shapes it); a `session.update` after that is refused, as Gemini fixes a session at its start.
 * Client: `conversation.item.create` (user or assistant `input_text`/`text`, `function_call_output`) ->
 * `clientContent` turns (sent with `turnComplete` at `response.create`) or `toolResponse`;
 * `input_audio_buffer.append` -> `realtimeInput.audio` (PCM16 resampled from the session's input rate, 24 kHz unless
 * chosen otherwise, to Gemini's 16 kHz); `.commit` -> `realtimeInput.audioStreamEnd`.
 * Server: text and inline audio parts -> `response.output_text.delta` / `response.output_audio.delta`,
 * `outputTranscription` -> `response.output_audio_transcript.delta`, `toolCall` -> function call items,
 * `turnComplete` / `interrupted` -> `response.done` (`completed` / `cancelled`) with `usageMetadata` as its usage.
 * @see https://ai.google.dev/api/live
 */
export class GeminiLiveTranslator implements RealtimeTranslator {
  #session: GeminiLiveSession = { modality: 'audio', tools: [], inputRate: OPENAI_PCM_RATE };
  /** Converts the client's input audio to 16 kHz (created with the first audio, once the session is fixed). */
  #resampler?: Pcm16Resampler;
  #setupSent = false;
  #turns: GeminiLiveTurn[] = [];
  readonly #responses = new GeminiLiveResponses();
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
        input: { format: { type: 'audio/pcm', rate: this.#session.inputRate } },
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
        return this.#appendAudio(event.audio, causedBy);
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

  /**
   * `input_audio_buffer.append`: the base64 PCM16 audio at the session's input rate, resampled to 16 kHz unless it is
   * 16 kHz already (see {@link Pcm16Resampler}), as `realtimeInput.audio`. A chunk too short to complete a 16 kHz
   * sample sends nothing; its samples go with the next.
   */
  #appendAudio(audio: unknown, causedBy: string | undefined): RealtimeTranslation {
    if (typeof audio !== 'string')
      return {
        upstream: [],
        client: [
          errorEvent(
            'invalid_request_error',
            'invalid_value',
            `input_audio_buffer.append needs \`audio\` (base64 PCM16, ${this.#session.inputRate} Hz, mono).`,
            causedBy ?? null,
            'audio',
          ),
        ],
      };
    const upstream = this.#upstream();
    let data = audio;
    if (this.#session.inputRate !== GEMINI_LIVE_INPUT_RATE) {
      this.#resampler ??= new Pcm16Resampler(this.#session.inputRate, GEMINI_LIVE_INPUT_RATE);
      const resampled = this.#resampler.push(Buffer.from(audio, 'base64'));
      if (resampled.length === 0) return { upstream, client: [] };
      data = resampled.toString('base64');
    }
    upstream.push(JSON.stringify({ realtimeInput: { audio: { data, mimeType: GEMINI_LIVE_INPUT_AUDIO } } }));
    return { upstream, client: [] };
  }

  #itemCreate(item: unknown, causedBy: string | undefined): RealtimeTranslation {
    const read = readClientItem(item, causedBy, this.#responses.callNames);
    if ('refusal' in read) return { upstream: [], client: [read.refusal] };
    if ('functionResponse' in read)
      return {
        upstream: this.#upstream(JSON.stringify({ toolResponse: { functionResponses: [read.functionResponse] } })),
        client: read.added,
      };
    this.#turns.push(read.turn);
    return { upstream: [], client: read.added };
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
    if (message.usageMetadata) this.#responses.usage = mapGeminiLiveUsage(message.usageMetadata);
    const content = message.serverContent;
    if (content) {
      for (const part of content.modelTurn?.parts ?? []) {
        if (part.inlineData?.mimeType?.startsWith('audio/'))
          events.push(...this.#responses.delta('audio', 'response.output_audio.delta', part.inlineData.data));
        else if (part.text !== undefined && this.#session.modality === 'text')
          events.push(...this.#responses.delta('text', 'response.output_text.delta', part.text));
      }
      if (content.outputTranscription?.text)
        events.push(
          ...this.#responses.delta('audio', 'response.output_audio_transcript.delta', content.outputTranscription.text),
        );
      if (content.inputTranscription?.text)
        events.push({
          type: 'conversation.item.input_audio_transcription.delta',
          event_id: id('event'),
          item_id: null,
          content_index: 0,
          delta: content.inputTranscription.text,
        });
      if (content.interrupted) events.push(...this.#responses.finish('cancelled'));
      if (content.turnComplete) events.push(...this.#responses.finish('completed'));
    }
    for (const call of message.toolCall?.functionCalls ?? [])
      events.push(
        ...this.#responses.functionCall(this.#session.modality, call.id ?? id('call'), call.name, call.args ?? {}),
      );
    if (message.toolCall) events.push(...this.#responses.finish('completed'));
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
}
