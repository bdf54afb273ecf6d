import { type MockUpstream, makeWav, sseFrames, testkitFixtures } from '@switchyard/testkit';
import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../src/config/config-from-env.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-presets-0123456789';
const GROQ_KEY = 'gsk_groq-upstream-secret-0123456789';
const fixtures = testkitFixtures();
let upstream: MockUpstream;
let client: OpenAI;

const transcription = fixtures.json<{ headers: Record<string, string>; body: string }>(
  'groq/groq-transcription-text.json',
);

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          'POST /openai/v1/chat/completions': { chunks: sseFrames(fixtures.chunkLines('groq/groq-text.chunks.txt')) },
          'POST /openai/v1/audio/transcriptions': { headers: transcription.headers, body: transcription.body },
          'POST /mistral/v1/chat/completions': {
            chunks: sseFrames(fixtures.chunkLines('mistral/mistral-tool-call.chunks.txt')),
          },
          'POST /deepseek/v1/chat/completions': { json: fixtures.json('deepseek/deepseek-reasoning.json') },
          'POST /ollama/v1/chat/completions': { json: fixtures.json('openai/openai-text.json') },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  groq: { adapter: groq, api_key: ${GROQ_KEY}, base_url: "${url.upstream}/openai/v1" }
  mistral: { adapter: mistral, api_key: mistral-key-0123456789, base_url: "${url.upstream}/mistral/v1" }
  deepseek: { adapter: deepseek, api_key: deepseek-key-0123456789, base_url: "${url.upstream}/deepseek/v1" }
  local: { adapter: ollama, base_url: "${url.upstream}/ollama/v1" }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      openai: client,
    } = gateway),
);

describe('OpenAI-compatible presets through the official openai SDK', () => {
  it('streams a Groq chat completion with the key sent as Bearer', async () => {
    const lines = fixtures.chunkLines('groq/groq-text.chunks.txt');
    const expected = lines
      .map((l) => (JSON.parse(l) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
      .join('');
    const stream = await client.chat.completions.create({
      model: 'groq/gemma2-9b-it',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe(expected);
    expect(upstream.requestsTo('POST /openai/v1/chat/completions')[0]!.headers.authorization).toBe(
      `Bearer ${GROQ_KEY}`,
    );
  });

  it('transcribes through Groq whisper (response_format text)', async () => {
    const recorded = fixtures.json<{ body: string }>('groq/groq-transcription-text.json');
    const text = await client.audio.transcriptions.create({
      model: 'groq/whisper-large-v3-turbo',
      file: await toFile(makeWav(), 'a.wav', { type: 'audio/wav' }),
      response_format: 'text',
    });
    expect(text).toBe(recorded.body);
  });

  it('streams a Mistral tool call the SDK can assemble (index and type added)', async () => {
    const stream = client.chat.completions.stream({
      model: 'mistral/mistral-small-latest',
      messages: [{ role: 'user', content: 'weather in SF?' }],
      tools: [
        {
          type: 'function',
          function: { name: 'weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
        },
      ],
    });
    const completion = await stream.finalChatCompletion();
    expect(completion.choices[0]!.message.tool_calls).toMatchObject([
      { id: 'gSIMJiOkT', type: 'function', function: { name: 'weather', arguments: '{"location": "San Francisco"}' } },
    ]);
    expect(completion.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('returns DeepSeek reasoning_content in the message', async () => {
    const recorded = fixtures.json<{ choices: { message: { reasoning_content: string } }[] }>(
      'deepseek/deepseek-reasoning.json',
    );
    const completion = await client.chat.completions.create({
      model: 'deepseek/deepseek-reasoner',
      messages: [{ role: 'user', content: 'How many r in strawberry?' }],
    });
    expect((completion.choices[0]!.message as { reasoning_content?: string }).reasoning_content).toBe(
      recorded.choices[0]!.message.reasoning_content,
    );
  });

  it('answers 400 unsupported_operation for an operation the preset does not serve', async () => {
    const error = await client.embeddings
      .create({ model: 'deepseek/deepseek-chat', input: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as InstanceType<typeof OpenAI.BadRequestError>).code).toBe('unsupported_operation');
  });

  it('reaches a keyless Ollama without an authorization header', async () => {
    const completion = await client.chat.completions.create({
      model: 'local/llama3.2',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]!.message.content).toBe(
      fixtures.json<{ choices: { message: { content: string } }[] }>('openai/openai-text.json').choices[0]!.message
        .content,
    );
    expect(upstream.requestsTo('POST /ollama/v1/chat/completions')[0]!.headers.authorization).toBeUndefined();
  });
});

describe('presets from the environment (no config file)', () => {
  it('enables each preset whose key variable is set, and keyless servers by their base URL variable', async () => {
    const config = await configFromEnv({
      SWITCHYARD_API_KEY: KEY,
      GROQ_API_KEY: GROQ_KEY,
      MISTRAL_API_KEY: 'mk-1',
      OLLAMA_BASE_URL: 'http://127.0.0.1:11434',
    });
    expect(config.providers.groq).toEqual({ adapter: 'groq', api_key: GROQ_KEY });
    expect(config.providers.mistral).toEqual({ adapter: 'mistral', api_key: 'mk-1' });
    expect(config.providers.ollama).toEqual({ adapter: 'ollama', base_url: 'http://127.0.0.1:11434/v1' });
    expect(Object.keys(config.providers).sort()).toEqual(['groq', 'mistral', 'ollama']);
  });

  it('is enabled by DEEPSEEK_API_KEY alone', async () => {
    const config = await configFromEnv({ SWITCHYARD_API_KEY: KEY, DEEPSEEK_API_KEY: 'sk-ds-1' });
    expect(Object.keys(config.providers)).toEqual(['deepseek']);
  });
});
