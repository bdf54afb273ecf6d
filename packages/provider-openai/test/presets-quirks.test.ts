import { GatewayError } from '@switchyard/core';
import { makeWav, sseFrames } from '@switchyard/testkit';
import { useMockUpstream } from '@switchyard/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { switchyardProviders, toMistralToolCallId } from '../src/index.js';
import { callContext, drain, fixtures } from './helpers/openai-test-upstream.js';

const KEY = 'preset-secret-key-0123456789';
const upstream = useMockUpstream({ clearBetweenTests: true });

/** The preset's adapter pointed at the mock upstream under the preset's own base path. */
function preset(name: string, settings: Record<string, unknown> = {}, path = '/v1') {
  const factory = switchyardProviders[name]!;
  return factory.create(
    factory.settingsSchema.parse({ api_key: KEY, base_url: `${upstream.url}${path}`, ...settings }),
  );
}

type Sent = { messages: { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[] };

describe('mistral preset', () => {
  it('rewrites foreign tool-call ids to 9 characters, the same for the call and its result', async () => {
    upstream.route('POST /v1/chat/completions', { json: fixtures.json('mistral/mistral-text.json') });
    await preset('mistral').chatCompletions!(
      {
        model: 'mistral-small-latest',
        messages: [
          { role: 'user', content: 'weather?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_Xy12abcDEF34567890', type: 'function', function: { name: 'weather', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_Xy12abcDEF34567890', content: 'sunny' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'gSIMJiOkT', type: 'function', function: { name: 'weather', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'gSIMJiOkT', content: 'rainy' },
        ],
      },
      callContext(),
    );
    const sent = upstream.requests[0]!.json as Sent;
    const rewritten = sent.messages[1]!.tool_calls![0]!.id;
    expect(rewritten).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(rewritten).toBe(toMistralToolCallId('call_Xy12abcDEF34567890'));
    expect(sent.messages[2]!.tool_call_id).toBe(rewritten);
    expect(sent.messages[3]!.tool_calls![0]!.id).toBe('gSIMJiOkT');
    expect(sent.messages[4]!.tool_call_id).toBe('gSIMJiOkT');
  });

  it('rejects n > 1 on mistral-large-2512 with 400 naming n, without calling Mistral; other models get n', async () => {
    upstream.route('POST /v1/chat/completions', { json: fixtures.json('mistral/mistral-text.json') });
    const error = await preset('mistral').chatCompletions!(
      { model: 'mistral-large-2512', n: 2, messages: [{ role: 'user', content: 'x' }] },
      callContext(),
    ).catch((e: unknown) => e);
    expect(GatewayError.isInstance(error)).toBe(true);
    expect((error as GatewayError).toJSON().error).toMatchObject({ type: 'invalid_request_error', param: 'n' });
    expect((error as GatewayError).status).toBe(400);
    expect(upstream.requests).toHaveLength(0);
    await preset('mistral').chatCompletions!(
      { model: 'mistral-small-latest', n: 2, messages: [{ role: 'user', content: 'x' }] },
      callContext(),
    );
    expect((upstream.requests[0]!.json as { n: number }).n).toBe(2);
  });

  it('gives the recorded tool calls type and index, in a completion and in a stream', async () => {
    upstream.route('POST /v1/chat/completions', [
      { json: fixtures.json('mistral/mistral-tool-call.json') },
      { chunks: sseFrames(fixtures.chunkLines('mistral/mistral-tool-call.chunks.txt')) },
    ]);
    const adapter = preset('mistral');
    const request = { model: 'mistral-small-latest', messages: [{ role: 'user' as const, content: 'weather in SF?' }] };
    const completion = (await adapter.chatCompletions!(request, callContext())) as {
      choices: { message: { tool_calls: unknown[] }; finish_reason: string }[];
    };
    expect(completion.choices[0]!.message.tool_calls).toEqual([
      { id: 'gSIMJiOkT', type: 'function', function: { name: 'weather', arguments: '{"location": "San Francisco"}' } },
    ]);
    const chunks = await drain(
      (await adapter.chatCompletions!({ ...request, stream: true }, callContext())) as AsyncIterable<never>,
    );
    const calls = chunks.flatMap((c) => c.choices.flatMap((choice) => choice.delta.tool_calls ?? []));
    expect(calls).toEqual([
      {
        index: 0,
        id: 'gSIMJiOkT',
        type: 'function',
        function: { name: 'weather', arguments: '{"location": "San Francisco"}' },
      },
    ]);
  });
});

describe('deepseek preset', () => {
  it('keeps reasoning_content in the message, in stream deltas and in the conversation sent back', async () => {
    const recorded = fixtures.json<{ choices: { message: { reasoning_content: string } }[] }>(
      'deepseek/deepseek-reasoning.json',
    );
    const lines = fixtures.chunkLines('deepseek/deepseek-reasoning.chunks.txt');
    upstream.route('POST /v1/chat/completions', [{ json: recorded }, { chunks: sseFrames(lines) }]);
    const adapter = preset('deepseek');
    const messages = [
      { role: 'user' as const, content: 'q1' },
      { role: 'assistant' as const, content: 'a1', reasoning_content: 'thought 1' },
      { role: 'user' as const, content: 'How many r in strawberry?' },
    ];
    const completion = (await adapter.chatCompletions!({ model: 'deepseek-reasoner', messages }, callContext())) as {
      choices: { message: { reasoning_content?: string } }[];
    };
    expect(completion.choices[0]!.message.reasoning_content).toBe(recorded.choices[0]!.message.reasoning_content);
    expect((upstream.requests[0]!.json as { messages: unknown[] }).messages[1]).toEqual({
      role: 'assistant',
      content: 'a1',
      reasoning_content: 'thought 1',
    });

    const chunks = await drain(
      (await adapter.chatCompletions!(
        { model: 'deepseek-reasoner', messages, stream: true },
        callContext(),
      )) as AsyncIterable<never>,
    );
    const reasoning = chunks
      .map((c) => (c.choices[0]?.delta as { reasoning_content?: string | null } | undefined)?.reasoning_content ?? '')
      .join('');
    const expected = lines
      .map(
        (l) =>
          (JSON.parse(l) as { choices: { delta: { reasoning_content?: string | null } }[] }).choices[0]?.delta
            .reasoning_content ?? '',
      )
      .join('');
    expect(reasoning.length).toBeGreaterThan(100);
    expect(reasoning).toBe(expected);
  });
});

describe('openrouter preset', () => {
  it('sends HTTP-Referer and X-Title from config', async () => {
    upstream.route('POST /api/v1/chat/completions', { json: fixtures.json('openai/openai-text.json') });
    await preset('openrouter', { http_referer: 'https://myapp.example', x_title: 'My App' }, '/api/v1')
      .chatCompletions!({ model: 'openai/gpt-4.1-nano', messages: [{ role: 'user', content: 'x' }] }, callContext());
    expect(upstream.requests[0]!.headers).toMatchObject({
      'http-referer': 'https://myapp.example',
      'x-title': 'My App',
      authorization: `Bearer ${KEY}`,
    });
  });

  it('accepts those keys only on openrouter', () => {
    expect(switchyardProviders.groq!.settingsSchema.safeParse({ api_key: 'k', x_title: 'My App' }).success).toBe(false);
  });
});

describe('groq preset', () => {
  it('transcribes with whisper through /openai/v1/audio/transcriptions', async () => {
    const recorded = fixtures.json<{ headers: Record<string, string>; body: string }>(
      'groq/groq-transcription-text.json',
    );
    upstream.route('POST /openai/v1/audio/transcriptions', { headers: recorded.headers, body: recorded.body });
    const result = await preset('groq', {}, '/openai/v1').transcriptions!(
      {
        model: 'whisper-large-v3-turbo',
        response_format: 'text',
        file: { data: makeWav(), filename: 'a.wav', contentType: 'audio/wav' },
      },
      callContext(),
    );
    expect(result).toEqual({ kind: 'text', contentType: recorded.headers['content-type'], body: recorded.body });
    expect(upstream.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('needs an API key and is enabled by GROQ_API_KEY', () => {
    const groq = switchyardProviders.groq!;
    expect(groq.settingsSchema.safeParse({}).success).toBe(false);
    expect(groq.settingsFromEnv!({ GROQ_API_KEY: 'gsk_1' })).toEqual({ api_key: 'gsk_1' });
    expect(groq.settingsFromEnv!({ GROQ_API_KEY: 'gsk_1', GROQ_BASE_URL: 'https://proxy.example/v1' })).toEqual({
      api_key: 'gsk_1',
      base_url: 'https://proxy.example/v1',
    });
    expect(groq.settingsFromEnv!({})).toBeUndefined();
  });
});

describe('keyless local servers', () => {
  for (const name of ['ollama', 'vllm', 'lmstudio']) {
    it(`${name} needs no key and sends no authorization header`, async () => {
      const factory = switchyardProviders[name]!;
      upstream.route('POST /v1/chat/completions', { json: fixtures.json('openai/openai-text.json') });
      const adapter = factory.create(factory.settingsSchema.parse({ base_url: `${upstream.url}/v1` }));
      await adapter.chatCompletions!({ model: 'llama3.2', messages: [{ role: 'user', content: 'x' }] }, callContext());
      expect(upstream.requests[0]!.headers.authorization).toBeUndefined();
    });
  }

  it('ollama is enabled by OLLAMA_BASE_URL, which gets /v1 when given without a path', () => {
    const ollama = switchyardProviders.ollama!;
    expect(ollama.apiKeyEnv).toBeUndefined();
    expect(ollama.settingsFromEnv!({ OLLAMA_BASE_URL: 'http://gpu-box:11434' })).toEqual({
      base_url: 'http://gpu-box:11434/v1',
    });
    expect(ollama.settingsFromEnv!({ OLLAMA_BASE_URL: 'http://gpu-box:11434/v1' })).toEqual({
      base_url: 'http://gpu-box:11434/v1',
    });
    expect(ollama.settingsFromEnv!({})).toBeUndefined();
    expect(switchyardProviders.vllm!.settingsFromEnv!({ VLLM_BASE_URL: 'http://10.0.0.5:8000/v1' })).toEqual({
      base_url: 'http://10.0.0.5:8000/v1',
    });
  });
});
