import { makeWav, sseFrames, testkitFixtures } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { expect } from 'vitest';
import { createAzure } from '../src/index.js';

const fixtures = testkitFixtures();
const speechAudio = makeWav({ durationMs: 100 });
const completion = fixtures.json<{
  choices: { message: { content: string } }[];
  usage: { prompt_tokens: number; completion_tokens: number };
}>('azure/azure-chat.json');
const lines = fixtures.chunkLines('azure/azure-model-router.1.chunks.txt');
const streamText = lines
  .map((l) => (JSON.parse(l) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
  .join('');
const route = 'POST /openai/deployments/my-gpt4o-deployment/chat/completions';

describeAdapterConformance({
  name: 'azure',
  createAdapter: (baseURL, apiKey) => createAzure({ apiKey, baseURL }),
  model: 'my-gpt4o-deployment',
  chat: {
    completion: {
      route,
      reply: { json: completion },
      expect: {
        content: '4200 + 42 equals 4242.',
        finish_reason: 'stop',
        usage: { prompt_tokens: 16, completion_tokens: 11 },
      },
    },
    stream: {
      route,
      reply: { chunks: sseFrames(lines) },
      expect: { content: streamText, finish_reason: 'stop', usage: { prompt_tokens: 15, completion_tokens: 78 } },
    },
    error: {
      route,
      reply: { status: 400, json: fixtures.json('azure/azure-content-filter-error.json') },
      expect: {
        status: 400,
        message: /content management policy.*Filtered: self_harm \(medium\)\.$/s,
        type: 'invalid_request_error',
      },
    },
    // Azure OpenAI speaks OpenAI's wire format; the tool call recorded from xAI's OpenAI-compatible API.
    toolCall: {
      route,
      reply: { json: fixtures.json('openai-compatible/xai-tool-call.json') },
      expect: { name: 'weather', arguments: { location: 'San Francisco' } },
    },
    assertRequest(request) {
      expect(request.query).toEqual({ 'api-version': '2024-10-21' });
      expect(request.headers['api-key']).toBeDefined();
      expect(request.headers.authorization).toBeUndefined();
      expect(request.json).toMatchObject({
        model: 'my-gpt4o-deployment',
        temperature: 0.5,
        top_p: 0.9,
        max_tokens: 64,
        stop: ['END'],
      });
    },
  },
  midStreamError: {
    route,
    // The recorded stream's first chunks (the prompt filter results, then the role), then an error event in OpenAI's
    // error shape (HTTP 200 already sent).
    reply: {
      chunks: [
        ...sseFrames(lines).slice(0, 2),
        'data: {"error":{"message":"The server had an error while processing your request.","type":"server_error"}}\n\n',
      ],
    },
    expect: { status: 502, message: 'The server had an error while processing your request.' },
  },
  embeddings: {
    route: 'POST /openai/deployments/my-gpt4o-deployment/embeddings',
    reply: { json: fixtures.json('openai/openai-embedding.json') },
    expect: { count: 2, dimensions: 5 },
  },
  // OpenAI's documented answer (no recording of a translation exists), on the deployment's path.
  translations: {
    route: 'POST /openai/deployments/my-gpt4o-deployment/audio/translations',
    reply: { json: fixtures.json('openai/spec-examples/createtranslation-default.json') },
    expect: { text: /^Hello, my name is Wolfgang/ },
  },
  // OpenAI's recorded legacy completion and image edit, on the deployment's path (Azure speaks OpenAI's wire format).
  completions: {
    completion: {
      route: 'POST /openai/deployments/my-gpt4o-deployment/completions',
      reply: { json: fixtures.json('openai/openai-completion-text.json') },
      expect: {
        text: fixtures.json<{ choices: { text: string }[] }>('openai/openai-completion-text.json').choices[0]!.text,
        finish_reason: 'length',
        usage: { prompt_tokens: 14, completion_tokens: 16 },
      },
    },
    stream: {
      route: 'POST /openai/deployments/my-gpt4o-deployment/completions',
      reply: { chunks: sseFrames(fixtures.chunkLines('openai/openai-completion-text.chunks.txt')) },
      expect: { text: /^The holiday is called "Gratitude Day"/, finish_reason: 'length' },
    },
  },
  // OpenAI's recorded transcription, speech (a synthetic WAV) and image generation, on the deployment's paths.
  transcriptions: {
    route: 'POST /openai/deployments/my-gpt4o-deployment/audio/transcriptions',
    reply: { json: fixtures.json('openai/openai-transcription.json') },
    expect: { text: fixtures.json<{ text: string }>('openai/openai-transcription.json').text },
  },
  speech: {
    route: 'POST /openai/deployments/my-gpt4o-deployment/audio/speech',
    reply: {
      headers: { 'content-type': 'audio/wav' },
      chunks: [speechAudio.subarray(0, 300), speechAudio.subarray(300)],
    },
    expect: { contentType: 'audio/wav', bytes: speechAudio },
  },
  imageGenerations: {
    route: 'POST /openai/deployments/my-gpt4o-deployment/images/generations',
    reply: { json: fixtures.json('openai/openai-image.json') },
    expect: { count: fixtures.json<{ data: unknown[] }>('openai/openai-image.json').data.length },
  },
  imageEdits: {
    route: 'POST /openai/deployments/my-gpt4o-deployment/images/edits',
    reply: { json: fixtures.json('openai/openai-image-edit.json') },
    expect: { count: 1 },
  },
  // Azure OpenAI's Batch API (global batch deployments) under /openai, scripted by the testkit's openAIBatchMock (no
  // recording of a batch exists); the error is Azure's recorded content filter error.
  nativeBatches: {
    prefix: '/openai',
    expect: { chatEndpoint: '/chat/completions' },
    error: {
      route: 'POST /openai/batches',
      reply: { status: 400, json: fixtures.json('azure/azure-content-filter-error.json') },
      expect: { status: 400, message: /content management policy/ },
    },
    assertRequest(request) {
      expect(request.query).toEqual({ 'api-version': '2024-10-21' });
      expect(request.headers['api-key']).toBeDefined();
      expect(request.headers.authorization).toBeUndefined();
    },
  },
  unsupported: ['moderations', 'imageVariations'],
});
