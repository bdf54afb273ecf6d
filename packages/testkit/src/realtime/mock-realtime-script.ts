import { randomUUID } from 'node:crypto';

/** A Realtime event as the mock sends and records them: a `type` and its fields. */
export type MockRealtimeEvent = { type: string; [field: string]: unknown };

/** PCM16 mono at 24 kHz, OpenAI Realtime's output format: 48,000 bytes per second. */
export const PCM16_24KHZ_BYTES_PER_SECOND = 48_000;

/** Audio tokens per second of audio in the mock's usage (OpenAI's own rate is about 10 per second of input). */
const AUDIO_TOKENS_PER_SECOND = 10;

const tokensOf = (text: string) => Math.ceil(text.length / 4);

/** What the mock's conversation holds (its items, in order). */
interface ConversationItem {
  id: string;
  type: string;
  role?: string;
  text: string;
  audioBytes: number;
  output?: string;
  name?: string;
}

/** Options of one mock conversation. */
export interface MockRealtimeScriptOptions {
  /** The `usage` of every `response.done`, instead of the counted one. */
  usage?: Record<string, unknown>;
  /** Audio deltas per audio response (each 100 ms of PCM16 at 24 kHz). Default 5. */
  audioDeltas?: number;
}

/**
 * The scripted behaviour of the mock Realtime upstream, OpenAI's GA event names: `session.update` -> `session.updated`;
 * `conversation.item.create` -> `conversation.item.added` + `.done`; `input_audio_buffer.append` buffers, `.commit` ->
 * `input_audio_buffer.committed` and a user audio item (`input_audio_buffer_commit_empty` error when nothing was
 * appended); `response.create` -> a response: a `get_weather` function call when a function tool is configured and the
 * last user text mentions the weather, text quoting the function output after a `function_call_output`, else
 * `Echo: <last user text>` (`I heard 0.2 s of audio` after audio), as text deltas or, with the `audio` output
 * modality, `response.output_audio.delta` chunks and their transcript; then `response.done` with usage counted from
 * the conversation (text: characters / 4; audio: 10 tokens per second; earlier turns' input as cached tokens).
 * @see https://platform.openai.com/docs/api-reference/realtime-server-events
 */
export class MockRealtimeScript {
  readonly #items: ConversationItem[] = [];
  readonly #session: Record<string, unknown>;
  #audioBuffer = 0;
  #previousInput = 0;
  #responses = 0;

  constructor(
    model: string,
    private readonly options: MockRealtimeScriptOptions = {},
  ) {
    this.#session = {
      type: 'realtime',
      object: 'realtime.session',
      id: `sess_mock_${randomUUID().slice(0, 8)}`,
      model,
      output_modalities: ['audio'],
      instructions: '',
      tools: [],
    };
  }

  /** The first event of a session. */
  opened(): MockRealtimeEvent[] {
    return [{ type: 'session.created', session: { ...this.#session } }];
  }

  /** The events answering one client event. */
  handle(event: MockRealtimeEvent): MockRealtimeEvent[] {
    switch (event.type) {
      case 'session.update':
        Object.assign(this.#session, typeof event.session === 'object' && event.session ? event.session : {});
        return [{ type: 'session.updated', session: { ...this.#session } }];
      case 'conversation.item.create':
        return this.#addItem(event.item as Record<string, unknown> | undefined);
      case 'input_audio_buffer.append':
        this.#audioBuffer += Buffer.from(String(event.audio ?? ''), 'base64').length;
        return [];
      case 'input_audio_buffer.clear':
        this.#audioBuffer = 0;
        return [{ type: 'input_audio_buffer.cleared' }];
      case 'input_audio_buffer.commit':
        return this.#commit();
      case 'response.create':
        return this.#respond((event.response ?? {}) as Record<string, unknown>);
      case 'response.cancel':
        return [];
      default:
        return [
          {
            type: 'error',
            error: {
              type: 'invalid_request_error',
              code: 'unknown_event',
              message: `Unknown event type '${event.type}'.`,
              param: null,
              event_id: event.event_id ?? null,
            },
          },
        ];
    }
  }

  #addItem(item: Record<string, unknown> | undefined): MockRealtimeEvent[] {
    const content = Array.isArray(item?.content) ? (item.content as Record<string, unknown>[]) : [];
    const stored: ConversationItem = {
      id: typeof item?.id === 'string' ? item.id : `item_${randomUUID().slice(0, 12)}`,
      type: String(item?.type ?? 'message'),
      role: typeof item?.role === 'string' ? item.role : undefined,
      text: content.map((c) => (typeof c.text === 'string' ? c.text : '')).join(''),
      audioBytes: 0,
      output: typeof item?.output === 'string' ? item.output : undefined,
    };
    const previous = this.#items.at(-1)?.id ?? null;
    this.#items.push(stored);
    const shown = { ...item, id: stored.id, object: 'realtime.item', status: 'completed' };
    return [
      { type: 'conversation.item.added', previous_item_id: previous, item: shown },
      { type: 'conversation.item.done', previous_item_id: previous, item: shown },
    ];
  }

  #commit(): MockRealtimeEvent[] {
    if (this.#audioBuffer === 0) {
      return [
        {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            code: 'input_audio_buffer_commit_empty',
            message: 'Error committing input audio buffer: buffer too small.',
            param: null,
            event_id: null,
          },
        },
      ];
    }
    const id = `item_${randomUUID().slice(0, 12)}`;
    const previous = this.#items.at(-1)?.id ?? null;
    this.#items.push({ id, type: 'message', role: 'user', text: '', audioBytes: this.#audioBuffer });
    this.#audioBuffer = 0;
    const item = {
      id,
      object: 'realtime.item',
      type: 'message',
      status: 'completed',
      role: 'user',
      content: [{ type: 'input_audio', transcript: null }],
    };
    return [
      { type: 'input_audio_buffer.committed', previous_item_id: previous, item_id: id },
      { type: 'conversation.item.added', previous_item_id: previous, item },
    ];
  }

  #respond(request: Record<string, unknown>): MockRealtimeEvent[] {
    const responseId = `resp_mock_${++this.#responses}_${randomUUID().slice(0, 6)}`;
    const modalities = (request.output_modalities ?? this.#session.output_modalities ?? ['audio']) as string[];
    const tools = (request.tools ?? this.#session.tools ?? []) as Record<string, unknown>[];
    const last = this.#items.at(-1);
    const lastUser = [...this.#items].reverse().find((i) => i.role === 'user');
    const events: MockRealtimeEvent[] = [];
    const response = {
      object: 'realtime.response',
      id: responseId,
      status: 'in_progress',
      output: [] as unknown[],
      usage: null,
    };
    events.push({ type: 'response.created', response: { ...response } });
    const itemId = `item_${randomUUID().slice(0, 12)}`;
    let outputText = '';
    let outputAudioBytes = 0;
    const fn = tools.find((t) => t.type === 'function');
    if (fn && last?.type !== 'function_call_output' && /weather/i.test(lastUser?.text ?? '')) {
      const callId = `call_${randomUUID().slice(0, 10)}`;
      const args = JSON.stringify({ city: 'Paris' });
      const item = {
        id: itemId,
        object: 'realtime.item',
        type: 'function_call',
        status: 'in_progress',
        name: String(fn.name),
        call_id: callId,
        arguments: '',
      };
      events.push({ type: 'response.output_item.added', response_id: responseId, output_index: 0, item });
      for (const piece of [args.slice(0, 8), args.slice(8)])
        events.push({
          type: 'response.function_call_arguments.delta',
          response_id: responseId,
          item_id: itemId,
          output_index: 0,
          call_id: callId,
          delta: piece,
        });
      events.push({
        type: 'response.function_call_arguments.done',
        response_id: responseId,
        item_id: itemId,
        output_index: 0,
        call_id: callId,
        name: fn.name,
        arguments: args,
      });
      const done = { ...item, status: 'completed', arguments: args };
      events.push({ type: 'response.output_item.done', response_id: responseId, output_index: 0, item: done });
      response.output.push(done);
      outputText = args;
      this.#items.push({ id: itemId, type: 'function_call', text: args, audioBytes: 0, name: String(fn.name) });
    } else {
      const text =
        last?.type === 'function_call_output'
          ? `The tool said: ${last.output ?? ''}`
          : lastUser?.audioBytes
            ? `I heard ${(lastUser.audioBytes / PCM16_24KHZ_BYTES_PER_SECOND).toFixed(1)} s of audio`
            : `Echo: ${lastUser?.text ?? ''}`;
      const audio = modalities.includes('audio');
      const item = {
        id: itemId,
        object: 'realtime.item',
        type: 'message',
        status: 'in_progress',
        role: 'assistant',
        content: [],
      };
      events.push({ type: 'response.output_item.added', response_id: responseId, output_index: 0, item });
      const part = audio ? { type: 'output_audio', transcript: '' } : { type: 'output_text', text: '' };
      events.push({
        type: 'response.content_part.added',
        response_id: responseId,
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        part,
      });
      const words = text.split(/(?<= )/);
      if (audio) {
        const chunk = Buffer.alloc(PCM16_24KHZ_BYTES_PER_SECOND / 10); // 100 ms of silence
        for (let i = 0; i < (this.options.audioDeltas ?? 5); i++) {
          events.push({
            type: 'response.output_audio.delta',
            response_id: responseId,
            item_id: itemId,
            output_index: 0,
            content_index: 0,
            delta: chunk.toString('base64'),
          });
          outputAudioBytes += chunk.length;
        }
        for (const word of words)
          events.push({
            type: 'response.output_audio_transcript.delta',
            response_id: responseId,
            item_id: itemId,
            output_index: 0,
            content_index: 0,
            delta: word,
          });
        events.push({
          type: 'response.output_audio.done',
          response_id: responseId,
          item_id: itemId,
          output_index: 0,
          content_index: 0,
        });
        events.push({
          type: 'response.output_audio_transcript.done',
          response_id: responseId,
          item_id: itemId,
          output_index: 0,
          content_index: 0,
          transcript: text,
        });
      } else {
        for (const word of words)
          events.push({
            type: 'response.output_text.delta',
            response_id: responseId,
            item_id: itemId,
            output_index: 0,
            content_index: 0,
            delta: word,
          });
        events.push({
          type: 'response.output_text.done',
          response_id: responseId,
          item_id: itemId,
          output_index: 0,
          content_index: 0,
          text,
        });
      }
      const donePart = audio ? { type: 'output_audio', transcript: text } : { type: 'output_text', text };
      events.push({
        type: 'response.content_part.done',
        response_id: responseId,
        item_id: itemId,
        output_index: 0,
        content_index: 0,
        part: donePart,
      });
      const done = { ...item, status: 'completed', content: [donePart] };
      events.push({ type: 'response.output_item.done', response_id: responseId, output_index: 0, item: done });
      response.output.push(done);
      outputText = text;
      this.#items.push({ id: itemId, type: 'message', role: 'assistant', text, audioBytes: outputAudioBytes });
    }
    events.push({
      type: 'response.done',
      response: {
        ...response,
        status: 'completed',
        usage: this.options.usage ?? this.#usage(outputText, outputAudioBytes),
      },
    });
    return events;
  }

  /** Usage of the response just made: the whole conversation as input (earlier input cached), its output. */
  #usage(outputText: string, outputAudioBytes: number): Record<string, unknown> {
    const items = this.#items.slice(0, -1);
    const textIn =
      items.reduce((n, i) => n + tokensOf(i.text + (i.output ?? '')), 0) +
      tokensOf(String(this.#session.instructions ?? ''));
    const audioIn = items.reduce(
      (n, i) => n + Math.ceil((i.audioBytes / PCM16_24KHZ_BYTES_PER_SECOND) * AUDIO_TOKENS_PER_SECOND),
      0,
    );
    const input = textIn + audioIn;
    const cached = Math.min(this.#previousInput, textIn);
    this.#previousInput = input;
    const audioOut = Math.ceil((outputAudioBytes / PCM16_24KHZ_BYTES_PER_SECOND) * AUDIO_TOKENS_PER_SECOND);
    const textOut = tokensOf(outputText);
    return {
      total_tokens: input + textOut + audioOut,
      input_tokens: input,
      output_tokens: textOut + audioOut,
      input_token_details: {
        cached_tokens: cached,
        text_tokens: textIn,
        audio_tokens: audioIn,
        image_tokens: 0,
        cached_tokens_details: { text_tokens: cached, audio_tokens: 0, image_tokens: 0 },
      },
      output_token_details: { text_tokens: textOut, audio_tokens: audioOut },
    };
  }
}
