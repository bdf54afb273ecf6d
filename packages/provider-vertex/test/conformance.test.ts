import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { expect } from 'vitest';
import { type VertexTokenSource, createVertex } from '../src/index.js';

const fixtures = testkitFixtures();
const root = '/v1/projects/my-project/locations/us-central1/publishers';
/** The suite's secret plays the access token. */
const staticToken = (token: string): VertexTokenSource => ({ getToken: async () => token, invalidate: () => {} });
const create = (baseURL: string, apiKey: string) =>
  createVertex({ project: 'my-project', location: 'us-central1', tokens: staticToken(apiKey), baseURL });

const geminiLines = fixtures.chunkLines('google/google-text.chunks.txt');
const geminiStreamText = geminiLines
  .map(
    (l) =>
      (
        JSON.parse(l) as { candidates?: { content?: { parts?: { text?: string }[] } }[] }
      ).candidates?.[0]?.content?.parts
        ?.map((p) => p.text ?? '')
        .join('') ?? '',
  )
  .join('');

/** Imagen's documented `:predict` answer shape (no recording of one exists): one base64 PNG. */
const imagen = {
  route: `POST ${root}/google/models/imagen-3.0-capability-001:predict`,
  reply: {
    json: {
      predictions: [
        {
          bytesBase64Encoded:
            'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
          mimeType: 'image/png',
        },
      ],
    },
  },
  expect: { count: 1 },
};

describeAdapterConformance({
  name: 'vertex (Gemini)',
  createAdapter: create,
  model: 'gemini-2.5-flash',
  chat: {
    completion: {
      route: `POST ${root}/google/models/gemini-2.5-flash:generateContent`,
      reply: { json: fixtures.json('google/google-text.json') },
      expect: {
        content: /^There are \*\*3\*\* r's in strawberry/,
        finish_reason: 'stop',
        usage: { prompt_tokens: 9, completion_tokens: 272 },
      },
    },
    stream: {
      route: `POST ${root}/google/models/gemini-2.5-flash:streamGenerateContent`,
      reply: { chunks: sseFrames(geminiLines, 'gemini') },
      expect: { content: geminiStreamText, finish_reason: 'stop', usage: { prompt_tokens: 9, completion_tokens: 208 } },
    },
    error: {
      route: `POST ${root}/google/models/gemini-2.5-flash:generateContent`,
      reply: { status: 429, json: fixtures.json('google/google-429-retry-info.json') },
      expect: { status: 429, message: /exceeded your current quota/, type: 'rate_limit_error' },
    },
    toolCall: {
      route: `POST ${root}/google/models/gemini-2.5-flash:generateContent`,
      reply: { json: fixtures.json('google/google-tool-call.json') },
      expect: { name: 'weather', arguments: { location: 'San Francisco' } },
    },
    assertRequest(request) {
      expect(request.headers.authorization).toBe('Bearer sk-conformance-secret-0123456789');
      expect(request.json).toEqual({
        systemInstruction: { parts: [{ text: 'You are a helpful assistant.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }],
        generationConfig: { temperature: 0.5, topP: 0.9, maxOutputTokens: 64, stopSequences: ['END'] },
      });
    },
  },
  midStreamError: {
    route: `POST ${root}/google/models/gemini-2.5-flash:streamGenerateContent`,
    reply: { body: fixtures.text('google/streaming-failure-error-mid-stream.txt') },
    expect: { status: 502, message: 'The operation was cancelled.' },
  },
  reasoning: {
    stream: {
      route: `POST ${root}/google/models/gemini-2.5-flash:streamGenerateContent`,
      reply: { body: fixtures.text('google/streaming-success-thinking-reply-thought-summary.txt') },
      extra: { reasoning_effort: 'high' },
      expect: { reasoning: /^\*\*Exploring Sky Color\*\*/, content: /^The sky is blue because/ },
    },
    roundTrip: {
      route: `POST ${root}/google/models/gemini-2.5-flash:generateContent`,
      reply: { json: fixtures.json('google/unary-success-thinking-function-call-thought-summary-signature.json') },
      extra: { reasoning_effort: 'low' },
      assertRequest(request, details) {
        const contents = (request.json as { contents: { role: string; parts: Record<string, unknown>[] }[] }).contents;
        expect(contents.find((c) => c.role === 'model')!.parts).toEqual([
          { functionCall: { name: 'now', args: {} }, thoughtSignature: details[0]!.data },
        ]);
      },
    },
  },
  embeddings: {
    route: `POST ${root}/google/models/gemini-2.5-flash:predict`,
    reply: { json: fixtures.json('google-vertex/google-vertex-embedding.json') },
    expect: { count: 2, dimensions: 5 },
  },
  // Image generation and edits go to Imagen (`:predict`), here its editing model.
  imageModel: 'imagen-3.0-capability-001',
  imageGenerations: imagen,
  imageEdits: imagen,
  unsupported: [
    'transcriptions',
    'speech',
    'listModels',
    'translations',
    'moderations',
    'completions',
    'imageVariations',
  ],
});

const claudeText = fixtures.json<{ content: { text: string }[] }>('anthropic/anthropic-text.json').content[0]!.text;
const claudeLines = fixtures.chunkLines('anthropic/anthropic-text.chunks.txt');
const claudeStreamText = claudeLines
  .map((l) => JSON.parse(l) as { type: string; delta?: { text?: string } })
  .map((e) => (e.type === 'content_block_delta' ? (e.delta?.text ?? '') : ''))
  .join('');

describeAdapterConformance({
  name: 'vertex (Claude)',
  createAdapter: create,
  model: 'claude-sonnet-4@20250514',
  chat: {
    completion: {
      route: `POST ${root}/anthropic/models/claude-sonnet-4@20250514:rawPredict`,
      reply: { json: fixtures.json('anthropic/anthropic-text.json') },
      expect: { content: claudeText, finish_reason: 'stop', usage: { prompt_tokens: 12, completion_tokens: 29 } },
    },
    stream: {
      route: `POST ${root}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`,
      reply: { chunks: sseFrames(claudeLines, 'typed') },
      expect: { content: claudeStreamText, finish_reason: 'stop', usage: { prompt_tokens: 12, completion_tokens: 30 } },
    },
    error: {
      route: `POST ${root}/anthropic/models/claude-sonnet-4@20250514:rawPredict`,
      reply: { status: 529, json: fixtures.json('anthropic/anthropic-error-overloaded.json') },
      expect: { status: 503, message: 'Overloaded' },
    },
    toolCall: {
      route: `POST ${root}/anthropic/models/claude-sonnet-4@20250514:rawPredict`,
      reply: { json: fixtures.json('anthropic/anthropic-tool-no-args.json') },
      expect: { name: 'updateIssueList', arguments: {} },
    },
    assertRequest(request) {
      expect(request.headers.authorization).toBe('Bearer sk-conformance-secret-0123456789');
      expect(request.json).toEqual({
        anthropic_version: 'vertex-2023-10-16',
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
    route: `POST ${root}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`,
    // The recorded stream's first events, then an `error` event as Anthropic documents it (HTTP 200 already sent).
    reply: {
      chunks: [
        ...sseFrames(claudeLines.slice(0, 3), 'typed'),
        'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
      ],
    },
    expect: { status: 503, message: 'Overloaded' },
  },
  reasoning: {
    stream: {
      route: `POST ${root}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`,
      reply: { chunks: sseFrames(fixtures.chunkLines('anthropic/anthropic-clear-thinking.1.chunks.txt'), 'typed') },
      extra: { reasoning_effort: 'low' },
      expect: {
        reasoning: 'The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185',
        content: '925 ÷ 5 = 185',
      },
    },
    roundTrip: {
      route: `POST ${root}/anthropic/models/claude-sonnet-4@20250514:rawPredict`,
      reply: { json: fixtures.json('anthropic/anthropic-clear-thinking.1.json') },
      extra: { reasoning_effort: 'low' },
      assertRequest(request, details) {
        const body = request.json as { thinking?: unknown; messages: { role: string; content: { type: string }[] }[] };
        expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
        expect(body.messages[1]!.content[0]).toEqual({
          type: 'thinking',
          thinking: details[0]!.text,
          signature: details[0]!.signature,
        });
      },
    },
  },
  unsupported: [
    'transcriptions',
    'speech',
    'listModels',
    'translations',
    'moderations',
    'completions',
    'imageVariations',
  ],
});
