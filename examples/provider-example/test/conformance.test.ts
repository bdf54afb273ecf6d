import { createFixtureReader, sseFrames } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { expect } from 'vitest';
import { createCohere } from '../src/index.js';

const fixtures = createFixtureReader(new URL('../fixtures/', import.meta.url));

describeAdapterConformance({
  name: 'switchyard-provider-example',
  createAdapter: (baseURL, apiKey) => createCohere({ apiKey, baseURL: `${baseURL}/v2` }),
  model: 'command-r-plus',
  chat: {
    completion: {
      route: 'POST /v2/chat',
      reply: { json: fixtures.json('cohere-text.json') },
      expect: {
        content: 'The capital of France is Paris.',
        finish_reason: 'stop',
        usage: { prompt_tokens: 507, completion_tokens: 10 },
      },
    },
    stream: {
      route: 'POST /v2/chat',
      reply: { chunks: sseFrames(fixtures.chunkLines('cohere-text.chunks.txt'), 'typed') },
      expect: {
        content: 'The capital of France is Paris.',
        finish_reason: 'stop',
        usage: { prompt_tokens: 507, completion_tokens: 10 },
      },
    },
    // Cohere's documented error shape (https://docs.cohere.com/reference/errors); no error recording exists.
    error: {
      route: 'POST /v2/chat',
      reply: { status: 429, json: { id: 'e1', message: 'trial key rate limit exceeded' } },
      expect: { status: 429, message: 'trial key rate limit exceeded', type: 'rate_limit_error' },
    },
    // This example serves text only: tools, images and JSON output are refused with a 400 naming the field.
    unsupported: ['tools', 'vision', 'json_schema', 'json_object'],
    assertRequest(request) {
      expect(request.json).toEqual({
        model: 'command-r-plus',
        messages: [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: 'Say hello.' },
        ],
        temperature: 0.5,
        p: 0.9,
        max_tokens: 64,
        stop_sequences: ['END'],
      });
    },
  },
  unsupported: [
    'embeddings',
    'transcriptions',
    'speech',
    'imageGenerations',
    'listModels',
    'translations',
    'moderations',
    'completions',
    'imageEdits',
    'imageVariations',
  ],
});
