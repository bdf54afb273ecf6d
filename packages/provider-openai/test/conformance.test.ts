import { makeWav, sseFrames, testkitFixtures } from '@switchyard/testkit';
import { conformanceChatRequest, describeAdapterConformance } from '@switchyard/testkit/conformance';
import { expect } from 'vitest';
import { createOpenAI } from '../src/index.js';

const fixtures = testkitFixtures();
const speechAudio = makeWav({ durationMs: 100 });
const completion = fixtures.json<{
  choices: { message: { content: string } }[];
  usage: { prompt_tokens: number; completion_tokens: number };
}>('openai/openai-text.json');
const lines = fixtures.chunkLines('openai/openai-text.chunks.txt');
const legacy = fixtures.json<{
  choices: { text: string }[];
  usage: { prompt_tokens: number; completion_tokens: number };
}>('openai/openai-completion-text.json');
const legacyLines = fixtures.chunkLines('openai/openai-completion-text.chunks.txt');
const legacyStreamText = legacyLines
  .map((l) => (JSON.parse(l) as { choices: { text: string }[] }).choices[0]?.text ?? '')
  .join('');
const streamText = lines
  .map((l) => (JSON.parse(l) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
  .join('');

describeAdapterConformance({
  name: 'openai',
  createAdapter: (baseURL, apiKey) => createOpenAI({ apiKey, baseURL: `${baseURL}/v1` }),
  model: 'gpt-4.1-nano',
  chat: {
    completion: {
      route: 'POST /v1/chat/completions',
      reply: { json: completion },
      expect: { content: completion.choices[0]!.message.content, finish_reason: 'stop', usage: completion.usage },
    },
    stream: {
      route: 'POST /v1/chat/completions',
      reply: { chunks: sseFrames(lines) },
      expect: { content: streamText, finish_reason: 'stop' },
    },
    error: {
      route: 'POST /v1/chat/completions',
      reply: { status: 429, json: fixtures.json('openai/openai-error.1.json') },
      expect: { status: 429, message: /exceeded your current quota/, type: 'insufficient_quota' },
    },
    assertRequest(request) {
      expect(request.headers.authorization).toMatch(/^Bearer /);
      expect(request.json).toEqual(conformanceChatRequest('gpt-4.1-nano'));
    },
    // OpenAI's wire format, recorded from xAI's OpenAI-compatible API (testkit fixtures/openai-compatible).
    toolCall: {
      route: 'POST /v1/chat/completions',
      reply: { json: fixtures.json('openai-compatible/xai-tool-call.json') },
      expect: { name: 'weather', arguments: { location: 'San Francisco' } },
    },
  },
  midStreamError: {
    route: 'POST /v1/chat/completions',
    // The recorded stream's first chunk, then an error event in OpenAI's error shape (HTTP 200 already sent).
    reply: {
      chunks: [
        ...sseFrames(lines).slice(0, 1),
        'data: {"error":{"message":"The server had an error while processing your request.","type":"server_error"}}\n\n',
      ],
    },
    expect: { status: 502, message: 'The server had an error while processing your request.' },
  },
  reasoning: {
    // DeepSeek speaks this API (adapter: openai); its recorded reasoning stream passes through.
    stream: {
      route: 'POST /v1/chat/completions',
      reply: { chunks: sseFrames(fixtures.chunkLines('deepseek/deepseek-reasoning.chunks.txt')) },
      expect: { reasoning: /^We need to count the number of the letter "r"/, content: /\S/ },
    },
  },
  embeddings: {
    route: 'POST /v1/embeddings',
    reply: { json: fixtures.json('openai/openai-embedding.json') },
    expect: { count: 2, dimensions: 5 },
  },
  transcriptions: {
    route: 'POST /v1/audio/transcriptions',
    reply: { json: fixtures.json('openai/openai-transcription.json') },
    expect: { text: fixtures.json<{ text: string }>('openai/openai-transcription.json').text },
  },
  // OpenAI's documented answer (no recording of a translation exists).
  translations: {
    route: 'POST /v1/audio/translations',
    reply: { json: fixtures.json('openai/spec-examples/createtranslation-default.json') },
    expect: { text: /^Hello, my name is Wolfgang/ },
  },
  // OpenAI's documented answer (no recording of a moderation exists).
  moderations: {
    route: 'POST /v1/moderations',
    reply: { json: fixtures.json('openai/spec-examples/createmoderation-image-and-text.json') },
    expect: { count: 1, flagged: [true] },
  },
  speech: {
    route: 'POST /v1/audio/speech',
    reply: {
      headers: { 'content-type': 'audio/mpeg' },
      chunks: [speechAudio.subarray(0, 300), speechAudio.subarray(300)],
    },
    expect: { contentType: 'audio/mpeg', bytes: speechAudio },
  },
  imageGenerations: {
    route: 'POST /v1/images/generations',
    reply: { json: fixtures.json('openai/openai-image.json') },
    expect: { count: fixtures.json<{ data: unknown[] }>('openai/openai-image.json').data.length },
  },
  completions: {
    completion: {
      route: 'POST /v1/completions',
      reply: { json: legacy },
      expect: { text: legacy.choices[0]!.text, finish_reason: 'length', usage: legacy.usage },
    },
    stream: {
      route: 'POST /v1/completions',
      reply: { chunks: sseFrames(legacyLines) },
      expect: { text: legacyStreamText, finish_reason: 'length' },
    },
  },
  imageEdits: {
    route: 'POST /v1/images/edits',
    reply: { json: fixtures.json('openai/openai-image-edit.json') },
    expect: { count: 1 },
  },
  // No recording of a variation exists; the answer has the ImagesResponse shape of the recorded generation.
  imageVariations: {
    route: 'POST /v1/images/variations',
    reply: { json: fixtures.json('openai/openai-image.json') },
    expect: { count: fixtures.json<{ data: unknown[] }>('openai/openai-image.json').data.length },
  },
  // OpenAI's Batch API, scripted by the testkit's openAIBatchMock (no recording of a batch exists); the error is
  // OpenAI's recorded quota error.
  nativeBatches: {
    prefix: '/v1',
    expect: { chatEndpoint: '/v1/chat/completions' },
    error: {
      route: 'POST /v1/batches',
      reply: { status: 429, json: fixtures.json('openai/openai-error.1.json') },
      expect: { status: 429, message: /exceeded your current quota/ },
    },
    assertRequest(request) {
      expect(request.headers.authorization).toMatch(/^Bearer /);
    },
  },
  unsupported: [],
});
