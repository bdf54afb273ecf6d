import { type MockGeminiLive, type TlsTerminator, startMockGeminiLive, startTlsTerminator } from '@switchyard/testkit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { type RunningServer, startServer } from '../src/start-server.js';
import { openSdkSession, type ServerEvent } from './helpers/realtime-clients.js';

const KEY = 'sk-static-gemini-live-0123456789';
const GEMINI_KEY = 'gemini-live-upstream-key-0123456789';

let gemini: MockGeminiLive;
let running: RunningServer;
let tls: TlsTerminator;

beforeAll(async () => {
  gemini = await startMockGeminiLive();
  running = await startServer(
    parseConfig(
      `
keys: ["${KEY}"]
admin: { master_key: "sk-master-gemini-live-0123456789" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  google: { adapter: google, api_key: ${GEMINI_KEY}, base_url: "${gemini.baseURL}" }
models:
  - { id: gemini-voice, provider: google, upstream: gemini-live-2.5-flash-preview }
`,
      'test.yaml',
      {},
    ),
    { logger: pino({ level: 'silent' }) },
  );
  tls = await startTlsTerminator(running.port);
});

afterAll(async () => {
  await running?.close();
  await tls?.close();
  await gemini?.close();
});

const deltas = (events: ServerEvent[], type: string) =>
  events.filter((e) => e.type === type).map((e) => String(e.delta));
type Done = {
  response: {
    id: string;
    status: string;
    usage: {
      input_tokens: number;
      output_tokens: number;
      input_token_details: { audio_tokens: number; text_tokens: number };
      output_token_details: { audio_tokens: number; text_tokens: number };
    };
  };
};

describe('/v1/realtime on Gemini Live, with the official openai SDK', () => {
  it('translates a text session: setup from session.update, text deltas, usage into response.done and the ledger', async () => {
    const session = openSdkSession(tls, KEY, 'gemini-voice');
    const created = await session.next('session.created');
    expect((created.session as { model: string }).model).toBe('gemini-voice');
    session.send({
      type: 'session.update',
      session: { type: 'realtime', output_modalities: ['text'], instructions: 'Be brief.' },
    });
    await session.next('session.updated');
    session.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello Gemini' }] },
    });
    await session.next('conversation.item.added');
    session.send({ type: 'response.create' });
    const done = (await session.next('response.done')) as unknown as Done;
    expect(deltas(session.events, 'response.output_text.delta').join('')).toBe('Gemini heard: Hello Gemini');
    expect(done.response.status).toBe('completed');
    expect(done.response.usage).toMatchObject({
      input_tokens: 3,
      output_tokens: 7,
      input_token_details: { text_tokens: 3, audio_tokens: 0 },
    });
    const connection = gemini.connections.at(-1)!;
    expect(connection.headers['x-goog-api-key']).toBe(GEMINI_KEY);
    expect(connection.url).not.toContain(GEMINI_KEY);
    expect(connection.received[0]).toEqual({
      setup: {
        model: 'models/gemini-live-2.5-flash-preview',
        generationConfig: { responseModalities: ['TEXT'] },
        systemInstruction: { parts: [{ text: 'Be brief.' }] },
      },
    });
    expect(connection.received[1]).toEqual({
      clientContent: { turns: [{ role: 'user', parts: [{ text: 'Hello Gemini' }] }], turnComplete: true },
    });
    session.send({ type: 'session.update', session: { type: 'realtime', instructions: 'Too late' } });
    expect((await session.next('error')).error).toMatchObject({ code: 'unsupported_event' });
    session.rt.close();
    await session.closed;
    await expect
      .poll(
        async () =>
          (await running.accounts!.requests({ limit: 100 })).filter((row) => row.request_id === done.response.id)
            .length,
      )
      .toBe(1);
    const [row] = (await running.accounts!.requests({ limit: 100 })).filter((r) => r.request_id === done.response.id);
    // gemini-live-2.5-flash-preview in the catalogue: text 0.5 / 2 USD per million tokens.
    expect(row).toMatchObject({
      operation: 'realtime',
      provider: 'google',
      prompt_tokens: 3,
      completion_tokens: 7,
      price_source: 'catalog',
    });
    expect(row!.cost_usd).toBeCloseTo((3 * 0.5 + 7 * 2) / 1e6, 12);
  });

  it('sends PCM16 16 kHz audio and relays 24 kHz audio deltas with their transcript', async () => {
    const session = openSdkSession(tls, KEY, 'gemini-voice');
    await session.next('session.created');
    const halfSecond = Buffer.alloc(16_000, 3); // 0.5 s of PCM16 mono at 16 kHz
    session.send({ type: 'input_audio_buffer.append', audio: halfSecond.toString('base64') });
    session.send({ type: 'input_audio_buffer.commit' });
    await session.next('input_audio_buffer.committed');
    session.send({ type: 'response.create' });
    const done = (await session.next('response.done')) as unknown as Done;
    const audio = deltas(session.events, 'response.output_audio.delta').map((d) => Buffer.from(d, 'base64'));
    expect(audio).toHaveLength(3);
    expect(audio.reduce((n, chunk) => n + chunk.length, 0)).toBe(14_400); // 300 ms at 24 kHz
    expect(deltas(session.events, 'response.output_audio_transcript.delta').join('')).toBe(
      'Gemini heard 0.5 s of audio',
    );
    expect(done.response.usage.input_token_details.audio_tokens).toBe(13);
    expect(done.response.usage.output_token_details.audio_tokens).toBe(8);
    const received = gemini.connections.at(-1)!.received;
    expect(received[0]).toMatchObject({
      setup: { generationConfig: { responseModalities: ['AUDIO'] }, outputAudioTranscription: {} },
    });
    expect(received[1]).toEqual({
      realtimeInput: { audio: { data: halfSecond.toString('base64'), mimeType: 'audio/pcm;rate=16000' } },
    });
    expect(received[2]).toEqual({ realtimeInput: { audioStreamEnd: true } });
    session.rt.close();
    await session.closed;
  });

  it('makes a function call round trip through toolCall and toolResponse', async () => {
    const session = openSdkSession(tls, KEY, 'gemini-voice');
    await session.next('session.created');
    const tools = [
      {
        type: 'function',
        name: 'get_weather',
        description: 'Weather of a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    ];
    session.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], tools } });
    await session.next('session.updated');
    session.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] },
    });
    session.send({ type: 'response.create' });
    const call = await session.next('response.function_call_arguments.done');
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    await session.next('response.done');
    session.send({
      type: 'conversation.item.create',
      item: { type: 'function_call_output', call_id: call.call_id, output: '{"temperature_c":21}' },
    });
    session.send({ type: 'response.create' });
    await session.next(
      'response.done',
      (e) => session.events.filter((x) => x.type === 'response.done').indexOf(e) === 1,
    );
    expect(deltas(session.events, 'response.output_text.delta').join('')).toBe('Tool said: {"temperature_c":21}');
    const received = gemini.connections.at(-1)!.received;
    expect(received[0]).toMatchObject({
      setup: { tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city' }] }] },
    });
    expect(received.at(-1)).toEqual({
      toolResponse: { functionResponses: [{ id: call.call_id, name: 'get_weather', response: { temperature_c: 21 } }] },
    });
    session.rt.close();
    await session.closed;
  });

  it('refuses what Gemini Live cannot do with an error event naming it, and keeps the session', async () => {
    const session = openSdkSession(tls, KEY, 'gemini-voice');
    await session.next('session.created');
    session.send({ type: 'input_audio_buffer.clear' });
    const error = await session.next('error');
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_event' });
    expect(String((error.error as { message: string }).message)).toContain('input_audio_buffer.clear');
    session.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Still here?' }] },
    });
    session.send({ type: 'response.create', response: {} });
    await session.next('response.done');
    session.rt.close();
    await session.closed;
  });
});
