import { type MockUpstream, createFixtureReader, makeWav } from '@switchyard/testkit';
import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config/config-from-env.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-audio-0123456789';
const DG_KEY = 'dg-upstream-secret-0123456789';
const XI_KEY = 'xi-upstream-secret-0123456789';
const RACHEL = '21m00Tcm4TlvDq8ikWAM';
// The recorded Deepgram answer ships with @switchyard/provider-deepgram (provenance in its fixtures/deepgram/README.md).
const deepgramFixtures = createFixtureReader(new URL('../../../packages/provider-deepgram/fixtures/', import.meta.url));
const recorded = deepgramFixtures.json<{
  metadata: { duration: number };
  results: { channels: { alternatives: { transcript: string }[] }[] };
}>('deepgram/deepgram-transcription.json');
const transcript = recorded.results.channels[0]!.alternatives[0]!.transcript;
const audio = makeWav({ durationMs: 300 });
let upstream: MockUpstream;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /v1/listen': (request) =>
            request.headers.authorization === `Token ${DG_KEY}`
              ? { json: recorded }
              : { status: 401, json: { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.' } },
          [`POST /v1/text-to-speech/${RACHEL}/stream`]: {
            headers: { 'content-type': 'audio/mpeg' },
            chunks: [audio.subarray(0, 2000), audio.subarray(2000)],
            chunkDelayMs: 5,
          },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  deepgram: { adapter: deepgram, api_key: ${DG_KEY}, base_url: "${url.upstream}" }
  elevenlabs: { adapter: elevenlabs, api_key: ${XI_KEY}, base_url: "${url.upstream}", voices: { alloy: ${RACHEL} } }
models:
  - { id: nova-3, provider: deepgram }
  - { id: eleven, provider: elevenlabs, upstream: eleven_multilingual_v2 }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      openai: client,
    } = gateway),
);

describe('transcription through Deepgram with the official openai SDK', () => {
  it('answers json', async () => {
    const result = await client.audio.transcriptions.create({
      model: 'nova-3',
      file: await toFile(makeWav(), 'a.wav', { type: 'audio/wav' }),
    });
    expect(result.text).toBe(transcript);
  });

  it('answers verbose_json with segments and words, and srt as text', async () => {
    const verbose = await client.audio.transcriptions.create({
      model: 'deepgram/nova-3',
      file: await toFile(makeWav(), 'a.wav', { type: 'audio/wav' }),
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    expect(verbose.duration).toBe(recorded.metadata.duration);
    expect(verbose.segments!.map((s) => s.text).join(' ')).toBe(transcript);
    expect(verbose.words![0]).toMatchObject({ word: 'galileo', start: 0.16 });
    const srt = await client.audio.transcriptions.create({
      model: 'nova-3',
      file: await toFile(makeWav(), 'a.wav', { type: 'audio/wav' }),
      response_format: 'srt',
    });
    expect(srt).toMatch(/^1\n00:00:00,160 --> /);
  });
});

describe('speech through ElevenLabs with the official openai SDK', () => {
  it('streams the audio for a mapped OpenAI voice', async () => {
    const response = await client.audio.speech.create({
      model: 'eleven',
      input: 'Hello from Switchyard',
      voice: 'alloy',
    });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(Buffer.from(await response.arrayBuffer()).equals(audio)).toBe(true);
    const sent = upstream.requestsTo(`POST /v1/text-to-speech/${RACHEL}/stream`)[0]!;
    expect(sent.headers['xi-api-key']).toBe(XI_KEY);
    expect(sent.json).toEqual({ text: 'Hello from Switchyard', model_id: 'eleven_multilingual_v2' });
  });

  it('answers 400 naming voice for an unmapped OpenAI voice', async () => {
    const error = await client.audio.speech
      .create({ model: 'eleven', input: 'Hi', voice: 'nova' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('voice');
  });
});

describe('audio providers from the environment', () => {
  it('enables Deepgram and ElevenLabs by their key variables', async () => {
    const config = await configFromEnv({
      SWITCHYARD_API_KEY: KEY,
      DEEPGRAM_API_KEY: DG_KEY,
      ELEVENLABS_API_KEY: XI_KEY,
    });
    expect(config.providers).toEqual({
      deepgram: { adapter: 'deepgram', api_key: DG_KEY },
      elevenlabs: { adapter: 'elevenlabs', api_key: XI_KEY },
    });
  });
});
