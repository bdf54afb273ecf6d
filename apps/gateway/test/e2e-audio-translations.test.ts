import { makeWav, multipartField, testkitFixtures } from '@switchyard/testkit';
import { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { useEndpointsGateway } from './helpers/endpoints-gateway.js';

// `POST /v1/audio/translations` through the official openai SDK (client.audio.translations.create) over real HTTP:
// OpenAI, the Groq preset and Azure pass the multipart form on; other providers answer 400 unsupported_operation.
const fixtures = testkitFixtures();
const translated = fixtures.json<{ text: string }>('openai/spec-examples/createtranslation-default.json').text;
const textBody = fixtures.json<{ body: string }>('openai/groq-transcription-text.json').body;

const { gateway, createKey, client, ledgerOf } = useEndpointsGateway(
  `
  - { id: whisper-1, provider: openai }
  - { id: groq-whisper, provider: groq, upstream: whisper-large-v3 }
  - { id: azure-whisper, provider: azure, upstream: my-whisper-deployment }
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
  - { id: deepseek-chat, provider: deepseek, upstream: deepseek-chat }
`,
  {
    'POST /openai/v1/audio/translations': {
      json: fixtures.json('openai/spec-examples/createtranslation-default.json'),
    },
    'POST /openai/deployments/my-whisper-deployment/audio/translations': {
      json: fixtures.json('openai/spec-examples/createtranslation-default.json'),
    },
  },
);
const upstream = () => gateway.upstreams.upstream;
const wav = makeWav({ durationMs: 200 });
const audio = () => toFile(wav, 'german.wav', { type: 'audio/wav' });

describe('POST /v1/audio/translations', () => {
  it('translates audio to English text through OpenAI, with the file and fields forwarded, and books a ledger row', async () => {
    const { id, key } = await createKey({ name: 'translations' });
    const res = await client(key).audio.translations.create({
      model: 'whisper-1',
      file: await audio(),
      prompt: 'A greeting.',
      temperature: 0.3,
    });
    expect(res.text).toBe(translated);
    const sent = upstream().requestsTo('POST /v1/audio/translations').at(-1)!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-openai-0000');
    expect(multipartField(sent, 'model')).toBe('whisper-1');
    expect(multipartField(sent, 'prompt')).toBe('A greeting.');
    expect(multipartField(sent, 'temperature')).toBe('0.3');
    expect(sent.body.includes(wav)).toBe(true);
    expect(sent.bodyText).toContain('filename="german.wav"');
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({ model: 'whisper-1', provider: 'openai', status: 200, stream: false });
  });

  it('returns the text formats as text', async () => {
    const { key } = await createKey({ name: 'translations-text' });
    const text = await client(key).audio.translations.create({
      model: 'whisper-1',
      file: await audio(),
      response_format: 'text',
    });
    expect(text).toBe(textBody);
  });

  it('translates through the Groq preset and Azure (deployment path)', async () => {
    const { id, key } = await createKey({ name: 'translations-hosts' });
    expect((await client(key).audio.translations.create({ model: 'groq-whisper', file: await audio() })).text).toBe(
      translated,
    );
    expect(multipartField(upstream().requestsTo('POST /openai/v1/audio/translations').at(-1)!, 'model')).toBe(
      'whisper-large-v3',
    );
    expect((await client(key).audio.translations.create({ model: 'azure-whisper', file: await audio() })).text).toBe(
      translated,
    );
    const azure = upstream().requestsTo('POST /openai/deployments/my-whisper-deployment/audio/translations').at(-1)!;
    expect(azure.headers['api-key']).toBe('azure-upstream-0000');
    expect(azure.body.includes(wav)).toBe(true);
    const rows = await ledgerOf(id, 2);
    expect(rows.map((r) => r.provider).sort()).toEqual(['azure', 'groq']);
  });

  it('answers 400 unsupported_operation for providers without translations, booked with its status', async () => {
    const { id, key } = await createKey({ name: 'translations-unsupported' });
    for (const model of ['claude', 'deepseek-chat']) {
      const error = await client(key)
        .audio.translations.create({ model, file: await audio() })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        status: 400,
        code: 'unsupported_operation',
        param: 'model',
        type: 'invalid_request_error',
      });
    }
    expect(upstream().requests).toHaveLength(0);
    expect((await ledgerOf(id, 2)).map((r) => r.status)).toEqual([400, 400]);
  });

  it('refuses bad input with a 400 in OpenAI shape naming the field', async () => {
    const { key } = await createKey({ name: 'translations-bad' });
    const bad = (body: Record<string, unknown>) =>
      client(key)
        .audio.translations.create(body as never)
        .catch((e: unknown) => e);
    expect(await bad({ model: 'whisper-1', file: await audio(), temperature: 3 })).toMatchObject({
      status: 400,
      param: 'temperature',
      type: 'invalid_request_error',
    });
    expect(await bad({ model: 'whisper-1', file: await audio(), response_format: 'diarized_json' })).toMatchObject({
      status: 400,
      param: 'response_format',
    });
    const form = new FormData();
    form.set('model', 'whisper-1');
    const res = await fetch(`${gateway.url}/audio/translations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: "Missing required parameter: 'file'.",
        type: 'invalid_request_error',
        param: 'file',
        code: 'missing_required_parameter',
      },
    });
    expect(upstream().requests).toHaveLength(0);
  });

  it('applies the key: a wrong key is 401, a key limited to 1 request a minute gets 429 on the second call', async () => {
    const wrong = await client('sk-not-a-key-0000000000')
      .audio.translations.create({ model: 'whisper-1', file: await audio() })
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ status: 401 });
    const { id, key } = await createKey({ name: 'translations-rpm', rpm_limit: 1 });
    await client(key).audio.translations.create({ model: 'whisper-1', file: await audio() });
    await expect(
      client(key).audio.translations.create({ model: 'whisper-1', file: await audio() }),
    ).rejects.toMatchObject({ status: 429, code: 'rate_limit_exceeded' });
    expect((await ledgerOf(id, 2)).map((r) => r.status)).toEqual([429, 200]);
    const limited = await createKey({ name: 'translations-models', models: ['gpt-4o'] });
    await expect(
      client(limited.key).audio.translations.create({ model: 'whisper-1', file: await audio() }),
    ).rejects.toMatchObject({ status: 403 });
  });
});
