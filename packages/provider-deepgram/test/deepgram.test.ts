import type { AdapterCallContext, GatewayWarning } from '@switchyard/core';
import { GatewayError } from '@switchyard/core';
import {
  type MockUpstream,
  countingUpstream,
  createFixtureReader,
  makeWav,
  startMockUpstream,
} from '@switchyard/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDeepgram, switchyardProvider } from '../src/index.js';

const KEY = 'dg-secret-key-0123456789abcdef';
const fixtures = createFixtureReader(new URL('../fixtures/', import.meta.url));
const recorded = fixtures.json<{
  metadata: { duration: number };
  results: {
    channels: { alternatives: { transcript: string; words: { word: string; start: number; end: number }[] }[] }[];
  };
}>('deepgram/deepgram-transcription.json');
const best = recorded.results.channels[0]!.alternatives[0]!;
const wav = makeWav();
const file = { data: wav, filename: 'a.wav', contentType: 'audio/wav' };
let upstream: MockUpstream;
let warnings: GatewayWarning[];

const context = (): AdapterCallContext => ({
  signal: new AbortController().signal,
  requestId: 'r1',
  provider: 'deepgram',
  warn: (w) => warnings.push(w),
});
const adapter = () => createDeepgram({ apiKey: KEY, baseURL: upstream.url });

beforeAll(async () => {
  upstream = await startMockUpstream();
});
beforeEach(() => {
  upstream.clear();
  warnings = [];
  upstream.route('POST /v1/listen', { json: recorded });
});
afterAll(() => upstream.close());

describe('Deepgram transcriptions', () => {
  it('sends the audio as the raw body of /v1/listen with the model, language and Token auth', async () => {
    await adapter().transcriptions!({ model: 'nova-3', language: 'en', prompt: 'galileo', file }, context());
    const sent = upstream.requests[0]!;
    expect(sent.headers.authorization).toBe(`Token ${KEY}`);
    expect(sent.headers['content-type']).toBe('audio/wav');
    expect(sent.body.equals(wav)).toBe(true);
    expect(sent.query).toMatchObject({ model: 'nova-3', language: 'en', utterances: 'true', smart_format: 'true' });
    expect(warnings).toEqual([expect.objectContaining({ param: 'prompt' })]);
  });

  it('detects the language when none is given', async () => {
    await adapter().transcriptions!({ model: 'nova-3', file }, context());
    expect(upstream.requests[0]!.query).toMatchObject({ detect_language: 'true' });
    expect(upstream.requests[0]!.query.language).toBeUndefined();
  });

  it('answers json with the transcript and the duration usage', async () => {
    expect(await adapter().transcriptions!({ model: 'nova-3', file }, context())).toEqual({
      kind: 'json',
      body: { text: best.transcript, usage: { type: 'duration', seconds: Math.ceil(recorded.metadata.duration) } },
    });
  });

  it('answers text as text/plain', async () => {
    expect(await adapter().transcriptions!({ model: 'nova-3', response_format: 'text', file }, context())).toEqual({
      kind: 'text',
      contentType: 'text/plain; charset=utf-8',
      body: best.transcript,
    });
  });

  it('answers verbose_json with segments covering every word, and words on request', async () => {
    const result = await adapter().transcriptions!(
      { model: 'nova-3', response_format: 'verbose_json', 'timestamp_granularities[]': ['word', 'segment'], file },
      context(),
    );
    expect(result.kind).toBe('json');
    const body = result.body as unknown as {
      duration: number;
      text: string;
      segments: { id: number; start: number; end: number; text: string }[];
      words: { word: string; start: number; end: number }[];
    };
    expect(body).toMatchObject({
      task: 'transcribe',
      language: 'en',
      duration: recorded.metadata.duration,
      text: best.transcript,
    });
    expect(body.words).toHaveLength(best.words.length);
    expect(body.words[0]).toEqual({ word: best.words[0]!.word, start: best.words[0]!.start, end: best.words[0]!.end });
    expect(body.segments.length).toBeGreaterThan(1);
    expect(body.segments.map((s) => s.text).join(' ')).toBe(best.transcript);
    expect(body.segments[0]!.start).toBe(best.words[0]!.start);
    expect(body.segments.at(-1)!.end).toBe(best.words.at(-1)!.end);
    body.segments.forEach((s, i) => {
      expect(s.id).toBe(i);
      expect(s.end).toBeGreaterThan(s.start);
    });
  });

  it('uses utterances as segments when Deepgram sends them', async () => {
    upstream.route('POST /v1/listen', {
      json: {
        ...recorded,
        results: {
          ...recorded.results,
          utterances: [
            { start: 0.16, end: 5.2, transcript: 'Galileo was an American robotic space program.' },
            { start: 6, end: 7.5, transcript: 'It studied Jupiter.' },
          ],
        },
      },
    });
    const result = await adapter().transcriptions!({ model: 'nova-3', response_format: 'srt', file }, context());
    expect(result).toEqual({
      kind: 'text',
      contentType: 'text/plain; charset=utf-8',
      body: '1\n00:00:00,160 --> 00:00:05,200\nGalileo was an American robotic space program.\n\n2\n00:00:06,000 --> 00:00:07,500\nIt studied Jupiter.\n',
    });
  });

  it('answers srt and vtt built from the word timings', async () => {
    const srt = await adapter().transcriptions!({ model: 'nova-3', response_format: 'srt', file }, context());
    const vtt = await adapter().transcriptions!({ model: 'nova-3', response_format: 'vtt', file }, context());
    expect(srt.kind === 'text' && srt.body).toMatch(/^1\n00:00:00,160 --> 00:00:\d\d,\d{3}\ngalileo was an american/);
    expect(vtt.kind === 'text' && vtt.body).toMatch(
      /^WEBVTT\n\n00:00:00\.160 --> 00:00:\d\d\.\d{3}\ngalileo was an american/,
    );
    expect(vtt.kind === 'text' && vtt.contentType).toMatch(/^text\/vtt/);
  });

  it('rejects diarized_json with 400 naming response_format, without calling Deepgram', async () => {
    const error = await adapter().transcriptions!(
      { model: 'nova-3', response_format: 'diarized_json', file },
      context(),
    ).catch((e: unknown) => e);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).toJSON().error.param).toBe('response_format');
    expect(upstream.requests).toHaveLength(0);
  });

  it("maps Deepgram's error body to OpenAI's shape without the key", async () => {
    upstream.route('POST /v1/listen', {
      status: 401,
      json: { err_code: 'INVALID_AUTH', err_msg: `Invalid credentials for ${KEY}.`, request_id: 'x' },
    });
    const error = (await adapter().transcriptions!({ model: 'nova-3', file }, context()).catch(
      (e: unknown) => e,
    )) as GatewayError;
    expect(GatewayError.isInstance(error)).toBe(true);
    expect(error.status).toBe(401);
    expect(error.toJSON().error).toMatchObject({ code: 'INVALID_AUTH', type: 'authentication_error' });
    expect(JSON.stringify(error.toJSON())).not.toContain(KEY);
  });

  it('serves transcriptions only, and is enabled by DEEPGRAM_API_KEY', () => {
    const built = switchyardProvider.create(switchyardProvider.settingsSchema.parse({ api_key: 'k' }));
    expect(
      Object.keys(built).filter((k) => typeof (built as unknown as Record<string, unknown>)[k] === 'function'),
    ).toEqual(['transcriptions']);
    expect(switchyardProvider.apiKeyEnv).toEqual(['DEEPGRAM_API_KEY']);
    expect(switchyardProvider.settingsSchema.safeParse({}).success).toBe(false);
  });
});

describe('Deepgram upstream settings', () => {
  it("reads through the gateway's dispatcher and answers 502 naming the provider and its body limit for an oversize answer", async () => {
    upstream.route('POST /v1/listen', { json: { ...recorded, filler: 'x'.repeat(5000) } });
    const counting = countingUpstream({ maxResponseBytes: 1000 });
    const error = (await adapter().transcriptions!(
      { model: 'nova-3', file },
      { ...context(), upstream: counting.upstream },
    ).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    expect(error.message).toContain("'deepgram'");
    expect(error.message).toContain('1000 byte limit (providers.deepgram.limits.max_response_bytes)');
    expect(counting.dispatched).toBe(1);
  });
});

describe('Deepgram parameters', () => {
  it('warns about every transcription field it does not translate, unknown ones included', async () => {
    await adapter().transcriptions!(
      { model: 'nova-3', temperature: 0.2, stream: 'true', 'include[]': 'logprobs', file } as never,
      context(),
    );
    expect(warnings.map((w) => [w.code, w.param])).toEqual([
      ['unsupported_parameter', 'temperature'],
      ['unsupported_parameter', 'stream'],
      ['unsupported_parameter', 'include[]'],
    ]);
    expect(warnings[0]!.message).toBe("'temperature' is not supported by Deepgram and was ignored.");
  });
});
