import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeWav, multipartField, testkitFixtures } from '@switchyard/testkit';
import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestGateway, startTestGateway } from './helpers/test-gateway.js';

const fixtures = testkitFixtures();
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());

describe('models', () => {
  it("lists configured models owned by their provider, then the provider's own as <provider>/<id>", async () => {
    const ids: string[] = [];
    for await (const model of gw.client.models.list()) {
      expect(model.object).toBe('model');
      expect(typeof model.created).toBe('number');
      ids.push(model.id);
      if (model.id === 'gpt-4o-mini') expect(model.owned_by).toBe('openai');
    }
    expect(ids).toEqual([
      'gpt-4o-mini',
      'text-embedding-3-small',
      'whisper-1',
      'tts-1',
      'dall-e-3',
      'openai/VAR_chat_model_id',
    ]);
  });

  it('retrieves a configured model and a provider-qualified one', async () => {
    expect(await gw.client.models.retrieve('gpt-4o-mini')).toMatchObject({
      id: 'gpt-4o-mini',
      object: 'model',
      owned_by: 'openai',
    });
    expect(await gw.client.models.retrieve('openai/VAR_chat_model_id')).toMatchObject({
      id: 'openai/VAR_chat_model_id',
      owned_by: 'openai',
    });
  });
});

describe('embeddings', () => {
  const recorded = fixtures.json<{ data: { embedding: number[] }[] }>('openai/openai-embedding.json');

  it('returns float vectors', async () => {
    const res = await gw.client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['sunny day at the beach', 'rainy day in the city'],
      encoding_format: 'float',
    });
    expect(res.data.map((d) => d.embedding)).toEqual(recorded.data.map((d) => d.embedding));
    expect(res.usage.total_tokens).toBe(res.usage.prompt_tokens);
  });

  it('returns base64 vectors that decode to the same floats (float32)', async () => {
    const res = await gw.client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'sunny day at the beach',
      encoding_format: 'base64',
    });
    const raw = res.data[0]!.embedding as unknown as string;
    expect(typeof raw).toBe('string');
    const bytes = Buffer.from(raw, 'base64');
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4));
    expect(decoded).toEqual(recorded.data[0]!.embedding.map((x) => Math.fround(x)));
  });

  it('lets the SDK default (base64, decoded by the SDK) give the recorded floats', async () => {
    const res = await gw.client.embeddings.create({ model: 'text-embedding-3-small', input: 'x', dimensions: 5 });
    expect(res.data[0]!.embedding).toEqual(recorded.data[0]!.embedding.map((x) => Math.fround(x)));
    expect(gw.upstream.requestsTo('POST /v1/embeddings').at(-1)!.json).toMatchObject({ dimensions: 5 });
  });
});

describe('audio', () => {
  it('transcribes a WAV made in the test (multipart forwarded with the file)', async () => {
    const wav = makeWav({ durationMs: 300 });
    const res = await gw.client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(wav, 'tone.wav', { type: 'audio/wav' }),
      language: 'en',
      temperature: 0.2,
    });
    expect(res.text).toBe(
      fixtures.json<{ text: string }>('openai/spec-examples/createtranscription-default.json').text,
    );
    const sent = gw.upstream.requestsTo('POST /v1/audio/transcriptions').at(-1)!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(multipartField(sent, 'model')).toBe('whisper-1');
    expect(multipartField(sent, 'language')).toBe('en');
    expect(sent.body.includes(wav)).toBe(true);
  });

  it('forwards timestamp_granularities as the repeated `timestamp_granularities[]` field OpenAI expects', async () => {
    const file = await toFile(makeWav(), 'tone.wav', { type: 'audio/wav' });
    await gw.client.audio.transcriptions.create({
      model: 'whisper-1',
      file,
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
    });
    const sent = gw.upstream.requestsTo('POST /v1/audio/transcriptions').at(-1)!;
    expect(sent.bodyText.match(/name="timestamp_granularities\[\]"\r\n\r\n(word|segment)\r\n/g)).toHaveLength(2);
    expect(sent.bodyText).not.toMatch(/name="timestamp_granularities"/);
  });

  it('returns verbose_json and text formats', async () => {
    const file = await toFile(makeWav(), 'tone.wav', { type: 'audio/wav' });
    const verbose = await gw.client.audio.transcriptions.create({
      model: 'whisper-1',
      file,
      response_format: 'verbose_json',
    });
    expect(verbose).toMatchObject({ language: 'english', duration: expect.any(Number), words: expect.any(Array) });
    const text = await gw.client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(makeWav(), 'a.wav'),
      response_format: 'text',
    });
    expect(text).toBe(fixtures.json<{ body: string }>('openai/groq-transcription-text.json').body);
  });

  it('writes speech to a file with the upstream content type', async () => {
    const res = await gw.client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hello there',
      response_format: 'wav',
    });
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-'));
    const path = join(dir, 'speech.wav');
    await writeFile(path, Buffer.from(await res.arrayBuffer()));
    const written = await readFile(path);
    expect(written.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(written.equals(makeWav({ durationMs: 250 }))).toBe(true);
  });
});

describe('images', () => {
  it('generates images with size, quality hd and n', async () => {
    const res = await gw.client.images.generate({
      model: 'dall-e-3',
      prompt: 'A baby sea otter',
      size: '1024x1024',
      quality: 'hd',
      n: 1,
      response_format: 'b64_json',
    });
    const recorded = fixtures.json<{ data: { b64_json: string }[] }>('openai/openai-image.json');
    expect(res.data?.[0]?.b64_json).toBe(recorded.data[0]!.b64_json);
    expect(gw.upstream.requestsTo('POST /v1/images/generations').at(-1)!.json).toMatchObject({
      size: '1024x1024',
      quality: 'hd',
      model: 'dall-e-3',
    });
  });
});

describe('health', () => {
  it('answers /healthz without a key', async () => {
    const res = await fetch(gw.running.url.replace(/\/v1$/, '/healthz'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
});
