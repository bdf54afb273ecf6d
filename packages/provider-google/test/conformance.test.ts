import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { expect } from 'vitest';
import { createGoogle } from '../src/index.js';

const fixtures = testkitFixtures();
const lines = fixtures.chunkLines('google/google-text.chunks.txt');
const streamText = lines
  .map(
    (l) =>
      (
        JSON.parse(l) as { candidates?: { content?: { parts?: { text?: string }[] } }[] }
      ).candidates?.[0]?.content?.parts
        ?.map((p) => p.text ?? '')
        .join('') ?? '',
  )
  .join('');

describeAdapterConformance({
  name: 'google',
  createAdapter: (baseURL, apiKey) => createGoogle({ apiKey, baseURL: `${baseURL}/v1beta` }),
  model: 'gemini-3-pro-preview',
  chat: {
    completion: {
      route: 'POST /v1beta/models/gemini-3-pro-preview:generateContent',
      reply: { json: fixtures.json('google/google-text.json') },
      expect: {
        content: /^There are \*\*3\*\* r's in strawberry/,
        finish_reason: 'stop',
        usage: { prompt_tokens: 9, completion_tokens: 272 },
      },
    },
    stream: {
      route: 'POST /v1beta/models/gemini-3-pro-preview:streamGenerateContent',
      reply: { chunks: sseFrames(lines, 'gemini') },
      expect: { content: streamText, finish_reason: 'stop', usage: { prompt_tokens: 9, completion_tokens: 208 } },
    },
    error: {
      route: 'POST /v1beta/models/gemini-3-pro-preview:generateContent',
      reply: { status: 429, json: fixtures.json('google/google-429-retry-info.json') },
      expect: { status: 429, message: /exceeded your current quota/, type: 'rate_limit_error' },
    },
    toolCall: {
      route: 'POST /v1beta/models/gemini-3-pro-preview:generateContent',
      reply: { json: fixtures.json('google/google-tool-call.json') },
      expect: { name: 'weather', arguments: { location: 'San Francisco' } },
    },
    assertRequest(request) {
      expect(request.headers['x-goog-api-key']).toBeDefined();
      expect(request.json).toEqual({
        systemInstruction: { parts: [{ text: 'You are a helpful assistant.' }] },
        contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }],
        generationConfig: { temperature: 0.5, topP: 0.9, maxOutputTokens: 64, stopSequences: ['END'] },
      });
    },
  },
  midStreamError: {
    route: 'POST /v1beta/models/gemini-3-pro-preview:streamGenerateContent',
    reply: { body: fixtures.text('google/streaming-failure-error-mid-stream.txt') },
    expect: { status: 502, message: 'The operation was cancelled.' },
  },
  reasoning: {
    stream: {
      route: 'POST /v1beta/models/gemini-3-pro-preview:streamGenerateContent',
      reply: { body: fixtures.text('google/streaming-success-thinking-reply-thought-summary.txt') },
      extra: { reasoning_effort: 'high' },
      expect: { reasoning: /^\*\*Exploring Sky Color\*\*/, content: /^The sky is blue because/ },
    },
    roundTrip: {
      route: 'POST /v1beta/models/gemini-3-pro-preview:generateContent',
      reply: { json: fixtures.json('google/unary-success-thinking-function-call-thought-summary-signature.json') },
      extra: { reasoning_effort: 'low' },
      assertRequest(request, details) {
        const contents = (request.json as { contents: { role: string; parts: Record<string, unknown>[] }[] }).contents;
        const model = contents.find((c) => c.role === 'model')!;
        expect(model.parts).toEqual([{ functionCall: { name: 'now', args: {} }, thoughtSignature: details[0]!.data }]);
      },
    },
  },
  embeddings: {
    route: 'POST /v1beta/models/gemini-3-pro-preview:batchEmbedContents',
    reply: { json: fixtures.json('google/google-batch-embed.json') },
    expect: { count: 2, dimensions: 5 },
  },
  // No recorded Imagen answer exists; this is the documented `:predict` shape with a 16-byte PNG header.
  imageGenerations: {
    route: 'POST /v1beta/models/gemini-3-pro-preview:predict',
    reply: {
      json: {
        predictions: [
          { bytesBase64Encoded: 'iVBORw0KGgoAAAANSUhEUg==', mimeType: 'image/png' },
          { bytesBase64Encoded: 'iVBORw0KGgoAAAANSUhEUg==', mimeType: 'image/png' },
        ],
      },
    },
    expect: { count: 2 },
  },
  unsupported: [
    'transcriptions',
    'speech',
    'translations',
    'moderations',
    'completions',
    'imageEdits',
    'imageVariations',
  ],
});
