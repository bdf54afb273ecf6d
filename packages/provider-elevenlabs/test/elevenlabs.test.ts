import { type AdapterCallContext, GatewayError, type GatewayWarning } from '@switchyard/core';
import { type MockUpstream, countingUpstream, makeWav, startMockUpstream } from '@switchyard/testkit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createElevenLabs, switchyardProvider } from '../src/index.js';

const KEY = 'xi-secret-key-0123456789abcdef';
const RACHEL = '21m00Tcm4TlvDq8ikWAM';
const audio = makeWav({ durationMs: 200 });
const parts = [audio.subarray(0, 1000), audio.subarray(1000)];
let upstream: MockUpstream;
let warnings: GatewayWarning[];

const context = (): AdapterCallContext => ({
  signal: new AbortController().signal,
  requestId: 'r1',
  provider: 'elevenlabs',
  warn: (w) => warnings.push(w),
});
const adapter = () => createElevenLabs({ apiKey: KEY, baseURL: upstream.url, voices: { alloy: RACHEL } });
const STREAM = `POST /v1/text-to-speech/${RACHEL}/stream`;

async function collect(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const out: Uint8Array[] = [];
  for await (const part of body) out.push(part);
  return Buffer.concat(out);
}

beforeAll(async () => {
  upstream = await startMockUpstream();
});
beforeEach(() => {
  upstream.clear();
  warnings = [];
  upstream.route(STREAM, { headers: { 'content-type': 'audio/mpeg' }, chunks: parts, chunkDelayMs: 5 });
});
afterAll(() => upstream.close());

describe('ElevenLabs speech', () => {
  it('maps the OpenAI voice to its voice id and streams mp3 from text-to-speech', async () => {
    const result = await adapter().speech!(
      { model: 'eleven_multilingual_v2', input: 'Hello there', voice: 'alloy', instructions: 'cheerful' },
      context(),
    );
    expect(result.contentType).toBe('audio/mpeg');
    expect((await collect(result.body)).equals(audio)).toBe(true);
    const sent = upstream.requestsTo(STREAM)[0]!;
    expect(sent.query).toEqual({ output_format: 'mp3_44100_128' });
    expect(sent.headers['xi-api-key']).toBe(KEY);
    expect(sent.json).toEqual({ text: 'Hello there', model_id: 'eleven_multilingual_v2' });
    expect(warnings).toEqual([expect.objectContaining({ param: 'instructions' })]);
  });

  it('yields audio before the upstream has finished, and throws 502 when it breaks off', async () => {
    upstream.route(STREAM, { headers: { 'content-type': 'audio/mpeg' }, chunks: parts, resetAfterChunks: 1 });
    const result = await adapter().speech!({ model: 'eleven_turbo_v2_5', input: 'Hi', voice: 'alloy' }, context());
    const iterator = result.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(Buffer.from(first.value as Uint8Array).equals(Buffer.from(parts[0]!))).toBe(true);
    const error = await iterator.next().catch((e: unknown) => e);
    expect(GatewayError.isInstance(error)).toBe(true);
    expect((error as GatewayError).status).toBe(502);
  });

  it('serves wav as pcm_24000 behind a WAV header, pcm raw, opus as opus', async () => {
    const wav = await adapter().speech!({ model: 'm', input: 'Hi', voice: 'alloy', response_format: 'wav' }, context());
    const bytes = await collect(wav.body);
    expect(wav.contentType).toBe('audio/wav');
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(bytes.readUInt32LE(24)).toBe(24_000);
    expect(bytes.subarray(44).equals(audio)).toBe(true);
    expect(upstream.requestsTo(STREAM)[0]!.query.output_format).toBe('pcm_24000');
    const pcm = await adapter().speech!({ model: 'm', input: 'Hi', voice: 'alloy', response_format: 'pcm' }, context());
    expect([pcm.contentType, (await collect(pcm.body)).equals(audio)]).toEqual(['audio/pcm', true]);
    await collect(
      (await adapter().speech!({ model: 'm', input: 'Hi', voice: 'alloy', response_format: 'opus' }, context())).body,
    );
    expect(upstream.requestsTo(STREAM)[2]!.query.output_format).toBe('opus_48000_128');
  });

  it('passes an ElevenLabs voice id through and sends speed as voice_settings.speed', async () => {
    await collect(
      (
        await createElevenLabs({ apiKey: KEY, baseURL: upstream.url }).speech!(
          { model: 'm', input: 'Hi', voice: { id: RACHEL }, speed: 1.1 },
          context(),
        )
      ).body,
    );
    expect(upstream.requestsTo(STREAM)[0]!.json).toEqual({ text: 'Hi', model_id: 'm', voice_settings: { speed: 1.1 } });
    await collect(
      (
        await createElevenLabs({ apiKey: KEY, baseURL: upstream.url }).speech!(
          { model: 'm', input: 'Hi', voice: RACHEL },
          context(),
        )
      ).body,
    );
    expect(upstream.requestsTo(STREAM)).toHaveLength(2);
  });

  it('rejects what ElevenLabs cannot do with a 400 naming the parameter, without calling it', async () => {
    const cases = [
      [{ voice: 'nova' }, 'voice'],
      [{ voice: 'alloy', response_format: 'aac' as const }, 'response_format'],
      [{ voice: 'alloy', response_format: 'flac' as const }, 'response_format'],
      [{ voice: 'alloy', speed: 2 }, 'speed'],
    ] as const;
    for (const [extra, param] of cases) {
      const error = (await adapter().speech!({ model: 'm', input: 'Hi', ...extra }, context()).catch(
        (e: unknown) => e,
      )) as GatewayError;
      expect([error.status, error.toJSON().error.param]).toEqual([400, param]);
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it("maps ElevenLabs' error body to OpenAI's shape without the key", async () => {
    upstream.route(STREAM, {
      status: 401,
      json: { detail: { status: 'invalid_api_key', message: `Invalid API key: ${KEY}` } },
    });
    const error = (await adapter().speech!({ model: 'm', input: 'Hi', voice: 'alloy' }, context()).catch(
      (e: unknown) => e,
    )) as GatewayError;
    expect(error.status).toBe(401);
    expect(error.toJSON().error).toMatchObject({ code: 'invalid_api_key', type: 'authentication_error' });
    expect(JSON.stringify(error.toJSON())).not.toContain(KEY);
  });

  it('serves speech only, and is enabled by ELEVENLABS_API_KEY', () => {
    const built = switchyardProvider.create(
      switchyardProvider.settingsSchema.parse({ api_key: 'k', voices: { alloy: RACHEL } }),
    );
    expect(
      Object.keys(built).filter((k) => typeof (built as unknown as Record<string, unknown>)[k] === 'function'),
    ).toEqual(['speech']);
    expect(switchyardProvider.apiKeyEnv).toEqual(['ELEVENLABS_API_KEY']);
  });
});

describe('ElevenLabs upstream settings', () => {
  it("calls through the gateway's dispatcher and answers 502 naming the provider and its error body limit", async () => {
    upstream.route(STREAM, { status: 500, json: { detail: { status: 'error', message: 'x'.repeat(5000) } } });
    const counting = countingUpstream({ maxErrorBytes: 1000 });
    const error = (await adapter().speech!(
      { model: 'm', input: 'Hi', voice: 'alloy' },
      { ...context(), upstream: counting.upstream },
    ).catch((e: unknown) => e)) as GatewayError;
    expect(error).toMatchObject({ status: 502, code: 'upstream_response_too_large' });
    expect(error.message).toContain("'elevenlabs'");
    expect(error.message).toContain('1000 byte limit (providers.elevenlabs.limits.max_error_bytes)');
    expect(counting.dispatched).toBe(1);
  });
});

describe('ElevenLabs parameters', () => {
  it('refuses SSE speech with 400 naming stream_format, and warns about fields it does not translate', async () => {
    const refused = (await adapter().speech!(
      { model: 'm', input: 'Hi', voice: 'alloy', stream_format: 'sse' },
      context(),
    ).catch((e: unknown) => e)) as GatewayError;
    expect(refused).toMatchObject({ status: 400, param: 'stream_format', code: 'unsupported_parameter' });
    expect(upstream.requests).toHaveLength(0);
    await collect(
      (
        await adapter().speech!(
          { model: 'm', input: 'Hi', voice: 'alloy', stream_format: 'audio', x_future_parameter: 1 } as never,
          context(),
        )
      ).body,
    );
    expect(warnings.map((w) => [w.code, w.param])).toEqual([['unsupported_parameter', 'x_future_parameter']]);
  });
});
