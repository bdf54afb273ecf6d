import { type MockGeminiLive, type TlsTerminator, startMockGeminiLive } from '@switchyard/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import {
  endSession,
  openSdkSession,
  type ServerEvent,
  userTextItem,
  weatherToolRoundTrip,
} from './helpers/realtime-clients.js';
import { type RealtimeGateway, startRealtimeGateway } from './helpers/realtime-gateway.js';

const KEY = 'sk-static-gemini-live-0123456789';
const GEMINI_KEY = 'gemini-live-upstream-key-0123456789';

let gemini: MockGeminiLive;
let gateway: RealtimeGateway;
let running: RunningServer;
let tls: TlsTerminator;

beforeAll(async () => {
  gemini = await startMockGeminiLive();
  gateway = await startRealtimeGateway(`
keys: ["${KEY}"]
admin: { master_key: "sk-master-gemini-live-0123456789" }
store: { sqlite: ":memory:" }
server: { port: 0 }
providers:
  google: { adapter: google, api_key: ${GEMINI_KEY}, base_url: "${gemini.baseURL}" }
models:
  - { id: gemini-voice, provider: google, upstream: gemini-live-2.5-flash-preview }
`);
  ({ running, tls } = gateway);
});

afterAll(async () => {
  await gateway?.close();
  await gemini?.close();
});

/** `seconds` of a sine of `hz` at `rate` (PCM16 mono, amplitude 10,000). */
function sine(hz: number, rate: number, seconds: number): Buffer {
  const out = Buffer.alloc(Math.round(rate * seconds) * 2);
  for (let i = 0; i < out.length / 2; i++)
    out.writeInt16LE(Math.round(10_000 * Math.sin((2 * Math.PI * hz * i) / rate)), 2 * i);
  return out;
}

/** The frequency of a PCM16 tone at `rate` (Hz), from its zero crossings after the first 100 samples. */
function toneHz(pcm: Buffer, rate: number): number {
  const samples = Array.from({ length: pcm.length / 2 }, (_, i) => pcm.readInt16LE(2 * i)).slice(100);
  let crossings = 0;
  for (let i = 1; i < samples.length; i++) if (samples[i - 1]! < 0 !== samples[i]! < 0) crossings++;
  return (crossings / 2) * (rate / samples.length);
}

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
    session.send(userTextItem('Hello Gemini'));
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
    await endSession(session);
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

  it('resamples the 24 kHz PCM16 OpenAI clients send to 16 kHz (a 1 kHz tone stays 1 kHz), relays 24 kHz audio out', async () => {
    const session = openSdkSession(tls, KEY, 'gemini-voice');
    const created = await session.next('session.created');
    expect(created.session).toMatchObject({ audio: { input: { format: { type: 'audio/pcm', rate: 24000 } } } });
    const halfSecond = sine(1000, 24_000, 0.5); // OpenAI's pcm16: 24 kHz mono
    // Sent in 5 appends of 100 ms, as a microphone would.
    for (let at = 0; at < halfSecond.length; at += 4800)
      session.send({ type: 'input_audio_buffer.append', audio: halfSecond.subarray(at, at + 4800).toString('base64') });
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
    const sent = received.slice(1, 6) as { realtimeInput: { audio: { data: string; mimeType: string } } }[];
    expect(sent.map((m) => m.realtimeInput.audio.mimeType)).toEqual(Array(5).fill('audio/pcm;rate=16000'));
    const at16k = Buffer.concat(sent.map((m) => Buffer.from(m.realtimeInput.audio.data, 'base64')));
    // 8,000 samples less the filter's lag of 24 input samples (16 at 16 kHz).
    expect(at16k.length / 2).toBeGreaterThanOrEqual(8_000 - 16);
    expect(at16k.length / 2).toBeLessThanOrEqual(8_000);
    expect(toneHz(at16k, 16_000)).toBeCloseTo(1000, -1);
    expect(received[6]).toEqual({ realtimeInput: { audioStreamEnd: true } });
    await endSession(session);
  });

  it('sends audio unchanged when the client chose 16 kHz input', async () => {
    const session = openSdkSession(tls, KEY, 'gemini-voice');
    await session.next('session.created');
    session.send({
      type: 'session.update',
      session: { type: 'realtime', audio: { input: { format: { type: 'audio/pcm', rate: 16000 } } } },
    });
    const updated = await session.next('session.updated');
    expect(updated.session).toMatchObject({ audio: { input: { format: { rate: 16000 } } } });
    const tenth = sine(440, 16_000, 0.1);
    session.send({ type: 'input_audio_buffer.append', audio: tenth.toString('base64') });
    session.send({ type: 'input_audio_buffer.commit' });
    await session.next('response.done');
    expect(gemini.connections.at(-1)!.received[1]).toEqual({
      realtimeInput: { audio: { data: tenth.toString('base64'), mimeType: 'audio/pcm;rate=16000' } },
    });
    await endSession(session);
  });

  it('makes a function call round trip through toolCall and toolResponse', async () => {
    const session = openSdkSession(tls, KEY, 'gemini-voice');
    await session.next('session.created');
    const tool = {
      type: 'function',
      name: 'get_weather',
      description: 'Weather of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
    };
    const call = await weatherToolRoundTrip(session, tool);
    expect(call).toMatchObject({ name: 'get_weather', arguments: '{"city":"Paris"}' });
    expect(deltas(session.events, 'response.output_text.delta').join('')).toBe('Tool said: {"temperature_c":21}');
    const received = gemini.connections.at(-1)!.received;
    expect(received[0]).toMatchObject({
      setup: { tools: [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather of a city' }] }] },
    });
    expect(received.at(-1)).toEqual({
      toolResponse: { functionResponses: [{ id: call.call_id, name: 'get_weather', response: { temperature_c: 21 } }] },
    });
    await endSession(session);
  });

  it('refuses what Gemini Live cannot do with an error event naming it, and keeps the session', async () => {
    const session = openSdkSession(tls, KEY, 'gemini-voice');
    await session.next('session.created');
    session.send({ type: 'input_audio_buffer.clear' });
    const error = await session.next('error');
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_event' });
    expect(String((error.error as { message: string }).message)).toContain('input_audio_buffer.clear');
    session.send(userTextItem('Still here?'));
    session.send({ type: 'response.create', response: {} });
    await session.next('response.done');
    await endSession(session);
  });
});
