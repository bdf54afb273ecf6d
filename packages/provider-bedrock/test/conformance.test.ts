import { eventStreamFrames, testkitFixtures } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { expect } from 'vitest';
import { createBedrock } from '../src/index.js';

const fixtures = testkitFixtures();
const lines = fixtures.chunkLines('amazon-bedrock/amazon-bedrock-text.chunks.txt');
const streamText = lines
  .map(
    (l) =>
      (JSON.parse(l) as { contentBlockDelta?: { delta?: { text?: string } } }).contentBlockDelta?.delta?.text ?? '',
  )
  .join('');
const model = 'anthropic.claude-3-5-sonnet-20241022-v2:0';
const base = '/model/anthropic.claude-3-5-sonnet-20241022-v2%3A0';
/** Nova Canvas's documented InvokeModel answer (no recording of one exists): `{images: [base64 PNG]}`. */
const novaCanvas = {
  route: 'POST /model/amazon.nova-canvas-v1%3A0/invoke',
  reply: {
    json: {
      images: ['iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='],
    },
  },
  expect: { count: 1 },
};

describeAdapterConformance({
  name: 'bedrock',
  // The suite's secret is used as the access key id: it is sent in the authorization header (Credential=...).
  createAdapter: (baseURL, apiKey) =>
    createBedrock({
      region: 'us-east-1',
      credentials: { accessKeyId: apiKey, secretAccessKey: 'conformance-secret-access-key' },
      baseURL,
    }),
  model,
  // Image generation, edits (IMAGE_VARIATION with the prompt, no mask here) and variations go to Nova Canvas.
  imageModel: 'amazon.nova-canvas-v1:0',
  // Embeddings go to Titan Text Embeddings v2 (one InvokeModel call per input).
  embeddingModel: 'amazon.titan-embed-text-v2:0',
  chat: {
    completion: {
      route: `POST ${base}/converse`,
      reply: { json: fixtures.json('amazon-bedrock/amazon-bedrock-text.json') },
      expect: {
        content: /^Let me count the "r"s in "strawberry"/,
        finish_reason: 'stop',
        usage: { prompt_tokens: 22, completion_tokens: 57 },
      },
    },
    stream: {
      route: `POST ${base}/converse-stream`,
      reply: { headers: { 'content-type': 'application/vnd.amazon.eventstream' }, chunks: eventStreamFrames(lines) },
      expect: { content: streamText, finish_reason: 'stop', usage: { prompt_tokens: 22, completion_tokens: 55 } },
    },
    error: {
      route: `POST ${base}/converse`,
      reply: {
        status: 429,
        headers: { 'x-amzn-errortype': 'ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
        json: { message: 'Too many requests, please wait before trying again.' },
      },
      expect: { status: 429, message: 'Too many requests, please wait before trying again.', type: 'rate_limit_error' },
    },
    toolCall: {
      route: `POST ${base}/converse`,
      reply: { json: fixtures.json('amazon-bedrock/amazon-bedrock-tool-call.1.json') },
      expect: { name: 'bash', arguments: { command: 'ls -l' } },
    },
    // Converse has no JSON mode: the adapter refuses response_format with a 400 naming it.
    unsupported: ['json_schema', 'json_object'],
    assertRequest(request) {
      expect(request.headers.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=sk-conformance-secret-0123456789\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=/,
      );
      expect(request.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/);
      expect(request.json).toEqual({
        system: [{ text: 'You are a helpful assistant.' }],
        messages: [{ role: 'user', content: [{ text: 'Say hello.' }] }],
        inferenceConfig: { maxTokens: 64, temperature: 0.5, topP: 0.9, stopSequences: ['END'] },
      });
    },
  },
  reasoning: {
    stream: {
      route: `POST ${base}/converse-stream`,
      reply: {
        headers: { 'content-type': 'application/vnd.amazon.eventstream' },
        chunks: eventStreamFrames(fixtures.chunkLines('amazon-bedrock/amazon-bedrock-reasoning.chunks.txt')),
      },
      extra: { reasoning_effort: 'low' },
      expect: { reasoning: /^Let me count the r's in "strawberry"/, content: /^There are \*\*3\*\* r's/ },
    },
    roundTrip: {
      route: `POST ${base}/converse`,
      reply: { json: fixtures.json('amazon-bedrock/amazon-bedrock-reasoning.json') },
      extra: { reasoning_effort: 'low' },
      assertRequest(request, details) {
        const messages = (request.json as { messages: { role: string; content: Record<string, unknown>[] }[] })
          .messages;
        expect(messages[1]!.role).toBe('assistant');
        expect(messages[1]!.content[0]).toEqual({
          reasoningContent: { reasoningText: { text: details[0]!.text, signature: details[0]!.signature } },
        });
      },
    },
  },
  imageGenerations: novaCanvas,
  imageEdits: novaCanvas,
  imageVariations: novaCanvas,
  // Titan's documented InvokeModel answer (no recording of one exists): `{embedding, inputTextTokenCount}`.
  embeddings: {
    route: 'POST /model/amazon.titan-embed-text-v2%3A0/invoke',
    reply: { json: { embedding: [0.1, -0.2, 0.3, 0.4, -0.5], inputTextTokenCount: 3 } },
    expect: { count: 2, dimensions: 5 },
  },
  unsupported: ['transcriptions', 'speech', 'translations', 'moderations', 'completions'],
});
