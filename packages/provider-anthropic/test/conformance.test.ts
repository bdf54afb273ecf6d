import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { expect } from 'vitest';
import { createAnthropic } from '../src/index.js';

const fixtures = testkitFixtures();
const text = fixtures.json<{ content: { text: string }[] }>('anthropic/anthropic-text.json').content[0]!.text;
const streamText = fixtures
  .chunkLines('anthropic/anthropic-text.chunks.txt')
  .map((l) => JSON.parse(l) as { type: string; delta?: { text?: string } })
  .map((e) => (e.type === 'content_block_delta' ? (e.delta?.text ?? '') : ''))
  .join('');

describeAdapterConformance({
  name: 'anthropic',
  createAdapter: (baseURL, apiKey) => createAnthropic({ apiKey, baseURL }),
  model: 'claude-sonnet-4-5-20250929',
  chat: {
    completion: {
      route: 'POST /v1/messages',
      reply: { json: fixtures.json('anthropic/anthropic-text.json') },
      expect: { content: text, finish_reason: 'stop', usage: { prompt_tokens: 12, completion_tokens: 29 } },
    },
    stream: {
      route: 'POST /v1/messages',
      reply: { chunks: sseFrames(fixtures.chunkLines('anthropic/anthropic-text.chunks.txt'), 'typed') },
      expect: { content: streamText, finish_reason: 'stop', usage: { prompt_tokens: 12, completion_tokens: 30 } },
    },
    error: {
      route: 'POST /v1/messages',
      reply: { status: 529, json: fixtures.json('anthropic/anthropic-error-overloaded.json') },
      expect: { status: 503, message: 'Overloaded' },
    },
    toolCall: {
      route: 'POST /v1/messages',
      reply: { json: fixtures.json('anthropic/anthropic-tool-no-args.json') },
      expect: { name: 'updateIssueList', arguments: {} },
    },
    assertRequest(request) {
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(request.json).toEqual({
        model: 'claude-sonnet-4-5-20250929',
        system: 'You are a helpful assistant.',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Say hello.' }] }],
        max_tokens: 64,
        temperature: 0.5,
        top_p: 0.9,
        stop_sequences: ['END'],
        metadata: { user_id: 'conformance-user' },
      });
    },
  },
  midStreamError: {
    route: 'POST /v1/messages',
    // The recorded stream's first events, then an `error` event as Anthropic documents it (HTTP 200 already sent).
    reply: {
      chunks: [
        ...sseFrames(fixtures.chunkLines('anthropic/anthropic-text.chunks.txt').slice(0, 3), 'typed'),
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
      ],
    },
    expect: { status: 503, message: 'Overloaded' },
  },
  reasoning: {
    stream: {
      route: 'POST /v1/messages',
      reply: { chunks: sseFrames(fixtures.chunkLines('anthropic/anthropic-clear-thinking.1.chunks.txt'), 'typed') },
      extra: { reasoning_effort: 'low' },
      expect: {
        reasoning: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
        content: '925 ÷ 5 = 185',
      },
    },
    roundTrip: {
      route: 'POST /v1/messages',
      reply: { json: fixtures.json('anthropic/anthropic-clear-thinking.1.json') },
      extra: { reasoning_effort: 'low' },
      assertRequest(request, details) {
        const messages = (request.json as { messages: { role: string; content: { type: string }[] }[] }).messages;
        expect(messages[1]!.role).toBe('assistant');
        expect(messages[1]!.content[0]).toEqual({
          type: 'thinking',
          thinking: details[0]!.text,
          signature: details[0]!.signature,
        });
        expect(details[0]!.signature).toMatch(/^Er4BCkYI/);
      },
    },
  },
  unsupported: [
    'embeddings',
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
