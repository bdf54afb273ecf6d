import { createFixtureReader, sseFrames } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { expect } from 'vitest';
import { createCohere } from '../src/index.js';

const fixtures = createFixtureReader(new URL('../fixtures/', import.meta.url));

describeAdapterConformance({
  name: 'cohere',
  createAdapter: (baseURL, apiKey) => createCohere({ apiKey, baseURL }),
  model: 'command-r-plus',
  chat: {
    completion: {
      route: 'POST /v2/chat',
      reply: { json: fixtures.json('cohere/cohere-text.json') },
      expect: {
        content: 'The capital of France is Paris.',
        finish_reason: 'stop',
        usage: { prompt_tokens: 12, completion_tokens: 7 },
      },
    },
    stream: {
      route: 'POST /v2/chat',
      reply: { chunks: sseFrames(fixtures.chunkLines('cohere/cohere-text.chunks.txt'), 'typed') },
      expect: {
        content: 'The capital of France is Paris.',
        finish_reason: 'stop',
        usage: { prompt_tokens: 12, completion_tokens: 7 },
      },
    },
    // Cohere's documented error shape (https://docs.cohere.com/reference/errors); no error recording exists.
    error: {
      route: 'POST /v2/chat',
      reply: { status: 429, json: { id: 'e1', message: 'trial key rate limit exceeded' } },
      expect: { status: 429, message: 'trial key rate limit exceeded', type: 'rate_limit_error' },
    },
    toolCall: {
      route: 'POST /v2/chat',
      reply: { json: fixtures.json('cohere/cohere-tool-call.json') },
      expect: { name: 'weather', arguments: { location: 'San Francisco' } },
    },
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
  embeddings: {
    route: 'POST /v2/embed',
    reply: { json: fixtures.json('cohere/cohere-embedding.json') },
    expect: { count: 2, dimensions: 5 },
  },
  unsupported: [
    'transcriptions',
    'speech',
    'imageGenerations',
    'translations',
    'moderations',
    'completions',
    'imageEdits',
    'imageVariations',
  ],
});
