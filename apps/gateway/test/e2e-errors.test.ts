import { makeWav, sseFrames, testkitFixtures } from '@switchyard/testkit';
import OpenAI, { toFile } from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openaiReplayRoutes } from '@switchyard/testkit';
import { GATEWAY_KEY, UPSTREAM_KEY, type TestGateway, startTestGateway } from './helpers/test-gateway.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(() => gw.close());
afterEach(() => {
  gw.upstream.route('POST /v1/chat/completions', openaiReplayRoutes()['POST /v1/chat/completions']!);
});

const errorShape = {
  error: {
    message: expect.any(String),
    type: expect.any(String),
    param: expect.toBeOneOf([expect.any(String), null]),
    code: expect.toBeOneOf([expect.any(String), null]),
  },
};

async function post(
  path: string,
  body: string | Buffer | FormData,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const res = await fetch(`${gw.running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${GATEWAY_KEY}`, ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as { error: Record<string, unknown> } };
}

async function sdkError(promise: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

const chat = (body: Record<string, unknown>) =>
  post(
    '/chat/completions',
    JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], ...body }),
  );

describe('authentication', () => {
  it('rejects a missing key with 401', async () => {
    const res = await fetch(`${gw.running.url}/models`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'invalid_api_key', type: 'invalid_request_error' } });
  });

  it('rejects a wrong key with 401 and does not echo it', async () => {
    const client = new OpenAI({ baseURL: gw.running.url, apiKey: 'sk-wrong-key-123456789', maxRetries: 0 });
    const error = await sdkError(
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.status).toBe(401);
    expect(JSON.stringify(error.error)).not.toContain('sk-wrong-key-123456789');
  });

  it('rejects the upstream key: only gateway-issued keys work', async () => {
    const client = new OpenAI({ baseURL: gw.running.url, apiKey: UPSTREAM_KEY, maxRetries: 0 });
    expect((await sdkError(client.models.list())).status).toBe(401);
  });
});

describe('validation', () => {
  it('400 on bad JSON', async () => {
    const res = await post('/chat/completions', '{"model": "gpt-4o-mini", ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: { type: 'invalid_request_error', code: 'invalid_json' } });
  });

  it.each([
    ['wrong type', { messages: 'hello' }, 'messages'],
    ['empty messages', { messages: [] }, 'messages'],
    ['temperature above 2', { temperature: 2.5 }, 'temperature'],
    ['presence_penalty below -2', { presence_penalty: -3 }, 'presence_penalty'],
    ['frequency_penalty above 2', { frequency_penalty: 2.1 }, 'frequency_penalty'],
    ['more than 4 stop sequences', { stop: ['a', 'b', 'c', 'd', 'e'] }, 'stop'],
    ['a message without role', { messages: [{ content: 'x' }] }, 'messages[0].role'],
  ])('400 naming the field: %s', async (_name, body, param) => {
    const res = await chat(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject(errorShape);
    expect(res.body.error.param).toBe(param);
    expect(res.body.error.message).toContain(param.split('[')[0]!);
  });

  it('SDK sees 400 for temperature outside 0..1 on transcriptions', async () => {
    const error = await sdkError(
      gw.client.audio.transcriptions.create({
        model: 'whisper-1',
        file: await toFile(makeWav(), 'a.wav'),
        temperature: 1.5,
      }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe('temperature');
  });

  it('400 naming file when the transcription has no file', async () => {
    const form = new FormData();
    form.set('model', 'whisper-1');
    const res = await post('/audio/transcriptions', form, {});
    expect(res.status).toBe(400);
    expect(res.body.error.param).toBe('file');
  });

  it('404 model_not_found for an unknown model', async () => {
    const error = await sdkError(
      gw.client.chat.completions.create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.status).toBe(404);
    expect(error.code).toBe('model_not_found');
    expect(error.param).toBe('model');
  });

  it('404 for an unknown model id in GET /v1/models/{model}', async () => {
    expect((await sdkError(gw.client.models.retrieve('nope'))).status).toBe(404);
  });

  it('413 for an oversized JSON body', async () => {
    const res = await chat({ messages: [{ role: 'user', content: 'x'.repeat(21 * 1024 * 1024) }] });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject(errorShape);
  });

  it('413 for an audio file over 25 MB', async () => {
    const error = await sdkError(
      gw.client.audio.transcriptions.create({
        model: 'whisper-1',
        file: await toFile(Buffer.alloc(25 * 1024 * 1024 + 1), 'big.wav', { type: 'audio/wav' }),
      }),
    );
    expect(error.status).toBe(413);
  });

  it('415 for a wrong content type', async () => {
    const res = await post('/chat/completions', 'model=gpt-4o-mini', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject(errorShape);
    const audio = await post('/audio/transcriptions', JSON.stringify({ model: 'whisper-1' }));
    expect(audio.status).toBe(415);
  });

  it('404 in OpenAI shape for an unknown route', async () => {
    const res = await post('/nothing-here', '{}');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject(errorShape);
  });
});

describe('upstream failures', () => {
  it('keeps the upstream status and message', async () => {
    const recorded = testkitFixtures().json<{ error: { message: string } }>('openai/openai-error.1.json');
    gw.upstream.route('POST /v1/chat/completions', { status: 429, json: recorded });
    const error = await sdkError(
      gw.client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.status).toBe(429);
    expect(error.error).toMatchObject({ message: recorded.error.message, code: 'insufficient_quota' });
  });

  it('502 when the upstream is unreachable', async () => {
    const error = await sdkError(
      gw.client.chat.completions.create({ model: 'dead/gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(error.status).toBe(502);
    expect(JSON.stringify(error.error)).not.toContain('sk-dead-upstream');
  });

  it('ends a stream that breaks after its first chunk with one error event, never [DONE]', async () => {
    const lines = testkitFixtures().chunkLines('openai/openai-text.chunks.txt');
    gw.upstream.route('POST /v1/chat/completions', { chunks: sseFrames(lines), resetAfterChunks: 3 });
    const stream = await gw.client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let received = 0;
    await expect(
      (async () => {
        for await (const _chunk of stream) received++;
      })(),
    ).rejects.toThrow();
    expect(received).toBe(3);

    const res = await fetch(`${gw.running.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${GATEWAY_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events).not.toContain('data: [DONE]');
    expect(JSON.parse(events.at(-1)!.slice('data: '.length))).toMatchObject(errorShape);
  });

  it('aborts the upstream request when the client disconnects', async () => {
    gw.upstream.route('POST /v1/chat/completions', { hang: true });
    gw.upstream.clear();
    const controller = new AbortController();
    const pending = gw.client.chat.completions.create(
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] },
      { signal: controller.signal },
    );
    await expect.poll(() => gw.upstream.requestsTo('POST /v1/chat/completions').length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => gw.upstream.requestsTo('POST /v1/chat/completions')[0]?.closedByClient).toBe(true);
  });
});
