import {
  type AdapterCallContext,
  type AdapterOperation,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  GatewayError,
  type ProviderAdapter,
  type ReasoningDetail,
} from '@switchyard/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockUpstream, startMockUpstream } from '../mock-upstream/start-mock-upstream.js';
import type { MockReply } from '../mock-upstream/mock-reply.js';
import type { AdapterConformanceOptions } from './adapter-conformance-options.js';
import { asChunkedReply } from './as-chunked-reply.js';
import { collectChunks } from './collect-chunks.js';
import { conformanceChatRequest } from './conformance-request.js';
import { describeChatCapabilityCases } from './describe-chat-capability-cases.js';
import { describeContextCases } from './describe-context-cases.js';
import { describeOperationCases } from './describe-operation-cases.js';
import { describeLegacyAndImageEditCases } from './describe-legacy-and-image-edit-cases.js';
import { describeNativeBatchCases } from './describe-native-batch-cases.js';
import { describeUnsupportedOperationCases } from './describe-unsupported-operation-cases.js';

const API_KEY = 'sk-conformance-secret-0123456789';
const OPERATIONS: AdapterOperation[] = [
  'chatCompletions',
  'completions',
  'embeddings',
  'transcriptions',
  'translations',
  'speech',
  'imageGenerations',
  'imageEdits',
  'imageVariations',
  'moderations',
  'listModels',
];

function context(
  signal: AbortSignal = new AbortController().signal,
  warn: AdapterCallContext['warn'] = () => {},
): AdapterCallContext {
  return { signal, requestId: 'conformance-request', provider: 'conformance', warn };
}

function matches(actual: string, expected: string | RegExp): void {
  if (typeof expected === 'string') expect(actual).toBe(expected);
  else expect(actual).toMatch(expected);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

/**
 * The adapter conformance suite (vitest): registers a `describe` block that runs one adapter against its own recorded
 * upstream traffic on the testkit's mock upstream and checks what every Switchyard adapter must do: request
 * translation (and the API key sent in a header, never in the URL), completion and stream translation, finish
 * reasons, usage sums, error mapping (status, OpenAI shape, no key in the message), transport failures (502), aborts
 * and early stream closes (the upstream connection is closed), mid-stream failures (the stream throws: a break, text
 * that is not a frame after the first event, the upstream's own mid-stream error), reasoning (`reasoning_content`
 * deltas before the content, `reasoning_details` signatures round-tripped) when the adapter gives recordings for
 * it, tools, vision and JSON output (see describeChatCapabilityCases), embeddings, transcriptions, speech and image generation for the adapters that serve them (see
 * describeOperationCases), and unsupported operations (exactly the listed methods are absent). An adapter without
 * chat (speech-only, transcription-only) leaves `chat` out. Call it at the top level of a test file.
 */
export function describeAdapterConformance(options: AdapterConformanceOptions): void {
  describe(`adapter conformance: ${options.name}`, () => {
    let upstream: MockUpstream;
    let adapter: ProviderAdapter;
    const { chat } = options;
    const chatCall = (extra = {}, signal?: AbortSignal) =>
      adapter.chatCompletions!(conformanceChatRequest(options.model, extra), context(signal));
    const operationCases = { upstream: () => upstream, adapter: () => adapter, apiKey: API_KEY, context };

    beforeAll(async () => {
      upstream = await startMockUpstream();
      adapter = options.createAdapter(upstream.url, API_KEY);
    });
    beforeEach(() => upstream.clear());
    afterAll(() => upstream.close());

    it('implements the current contract and exactly the supported operations', () => {
      expect(typeof adapter.adapter).toBe('string');
      for (const operation of OPERATIONS) {
        expect(typeof adapter[operation], operation).toBe(
          options.unsupported.includes(operation) ? 'undefined' : 'function',
        );
      }
      expect(typeof adapter.batches, 'batches (nativeBatches given)').toBe(
        options.nativeBatches ? 'object' : 'undefined',
      );
    });

    if (chat) {
      describeContextCases({ upstream: () => upstream, adapter: () => adapter, model: options.model }, chat);

      it('translates the request and authenticates with the key in a header', async () => {
        upstream.route(chat.completion.route, chat.completion.reply);
        await chatCall();
        const [sent] = upstream.requestsTo(chat.completion.route);
        expect(sent, 'the adapter called the recorded route').toBeDefined();
        const headerValues = Object.values(sent!.headers).flat().join('\n');
        expect(headerValues).toContain(API_KEY);
        expect(JSON.stringify(sent!.query) + sent!.path).not.toContain(API_KEY);
        chat.assertRequest(sent!);
      });

      it('translates a completion: shape, content, finish_reason, usage sum', async () => {
        upstream.route(chat.completion.route, chat.completion.reply);
        const completion = (await chatCall()) as ChatCompletion;
        expect(completion).toMatchObject({
          object: 'chat.completion',
          id: expect.any(String),
          created: expect.any(Number),
        });
        expect(completion.choices[0]).toMatchObject({ index: 0, message: { role: 'assistant' } });
        matches(completion.choices[0]!.message.content ?? '', chat.completion.expect.content);
        expect(completion.choices[0]!.finish_reason).toBe(chat.completion.expect.finish_reason);
        expect(completion.usage, 'usage').toBeDefined();
        const usage = completion.usage!;
        expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
        if (chat.completion.expect.usage) expect(usage).toMatchObject(chat.completion.expect.usage);
      });

      it('translates a stream chunk by chunk: one id, content, one finish_reason, usage sum', async () => {
        upstream.route(chat.stream.route, chat.stream.reply);
        const stream = (await chatCall({
          stream: true,
          stream_options: { include_usage: true },
        })) as AsyncIterable<ChatCompletionChunk>;
        expect(typeof stream[Symbol.asyncIterator]).toBe('function');
        const assembled = await collectChunks(stream);
        for (const chunk of assembled.chunks)
          expect(chunk).toMatchObject({
            object: 'chat.completion.chunk',
            created: expect.any(Number),
            choices: expect.any(Array),
          });
        expect(assembled.ids.size).toBe(1);
        matches(assembled.content, chat.stream.expect.content);
        expect(assembled.finishReasons).toEqual([chat.stream.expect.finish_reason]);
        const finishAt = assembled.chunks.findIndex((chunk) => chunk.choices.some((choice) => choice.finish_reason));
        const contentAfterFinish = assembled.chunks
          .slice(finishAt + 1)
          .flatMap((chunk) => chunk.choices.filter((c) => c.delta?.content || c.delta?.tool_calls?.length));
        expect(contentAfterFinish, 'the finish_reason is on the last content chunk').toEqual([]);
        expect(assembled.usage, 'stream_options.include_usage: a chunk carries usage').toBeDefined();
        expect(assembled.usage!.total_tokens).toBe(assembled.usage!.prompt_tokens + assembled.usage!.completion_tokens);
        if (chat.stream.expect.usage) expect(assembled.usage).toMatchObject(chat.stream.expect.usage);
      });

      it('maps an upstream error to its status in OpenAI shape, without the key', async () => {
        upstream.route(chat.error.route, chat.error.reply);
        const error = await rejection(chatCall());
        expect(GatewayError.isInstance(error)).toBe(true);
        const gatewayError = error as GatewayError;
        expect(gatewayError.status).toBe(chat.error.expect.status);
        const body = gatewayError.toJSON();
        expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
        if (chat.error.expect.message) matches(body.error.message, chat.error.expect.message);
        if (chat.error.expect.type) expect(body.error.type).toBe(chat.error.expect.type);
        expect(JSON.stringify(body) + gatewayError.message).not.toContain(API_KEY);
      });

      it('answers 502 when the upstream resets the connection', async () => {
        upstream.route(chat.completion.route, { reset: true });
        const error = await rejection(chatCall());
        expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
        expect((error as GatewayError).status).toBe(502);
      });

      it('stops at once and closes the upstream request when aborted', async () => {
        upstream.route(chat.completion.route, { hang: true });
        const controller = new AbortController();
        const started = Date.now();
        const pending = rejection(chatCall({}, controller.signal));
        await expect.poll(() => upstream.requestsTo(chat.completion.route).length).toBe(1);
        controller.abort(new Error('client gone'));
        await pending;
        expect(Date.now() - started).toBeLessThan(2000);
        await expect
          .poll(() => upstream.requestsTo(chat.completion.route)[0]?.closedByClient, { timeout: 5000 })
          .toBe(true);
      });

      it('closes the upstream stream when the consumer stops early', async () => {
        upstream.route(chat.stream.route, { ...asChunkedReply(chat.stream.reply), chunkDelayMs: 50 });
        const stream = (await chatCall({ stream: true })) as AsyncIterable<ChatCompletionChunk>;
        for await (const _chunk of stream) break;
        await expect
          .poll(() => upstream.requestsTo(chat.stream.route)[0]?.closedByClient, { timeout: 5000 })
          .toBe(true);
      });

      it('throws, rather than ending quietly, when the stream breaks off', async () => {
        upstream.route(chat.stream.route, {
          ...asChunkedReply(chat.stream.reply),
          resetAfterChunks: 2,
          chunkDelayMs: 5,
        });
        const error = await rejection(
          (async () => {
            const stream = (await chatCall({ stream: true })) as AsyncIterable<ChatCompletionChunk>;
            await collectChunks(stream);
          })(),
        );
        expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
        expect((error as GatewayError).status).toBeGreaterThanOrEqual(500);
      });

      const firstChunks = (reply: MockReply) => {
        const chunks = asChunkedReply(reply).chunks ?? [];
        return chunks.slice(0, Math.max(1, Math.min(2, chunks.length - 1)));
      };
      const streamFailure = async (extra: Record<string, unknown> = {}) => {
        const seen: ChatCompletionChunk[] = [];
        const error = await rejection(
          (async () => {
            const stream = (await chatCall({ stream: true, ...extra })) as AsyncIterable<ChatCompletionChunk>;
            for await (const chunk of stream) seen.push(chunk);
          })(),
        );
        return { seen, error };
      };

      it('ends with an error, never a clean finish, when text that is not a frame follows the first event', async () => {
        const chunks = firstChunks(chat.stream.reply);
        upstream.route(chat.stream.route, {
          headers: chat.stream.reply.headers,
          chunks: [...chunks, '{\n  "error": {"code": 500, "message": "broken"}\n}\n'],
        });
        const { seen, error } = await streamFailure();
        expect(seen.length, 'chunks before the failure are delivered').toBeGreaterThan(0);
        expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
        expect((error as GatewayError).status).toBeGreaterThanOrEqual(500);
        expect(JSON.stringify((error as GatewayError).toJSON())).not.toContain(API_KEY);
      });

      if (options.midStreamError) {
        const failure = options.midStreamError;
        it("ends with the upstream's error when it fails after the first byte", async () => {
          upstream.route(failure.route, failure.reply);
          const { seen, error } = await streamFailure();
          expect(seen.length, 'chunks before the failure are delivered').toBeGreaterThan(0);
          expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
          expect((error as GatewayError).status).toBe(failure.expect.status);
          if (failure.expect.message) matches((error as GatewayError).message, failure.expect.message);
        });
      }

      if (options.reasoning) {
        const { stream: reasoningStream, roundTrip } = options.reasoning;
        it('streams reasoning as delta.reasoning_content before the content, never inside it', async () => {
          upstream.route(reasoningStream.route, reasoningStream.reply);
          const stream = (await chatCall({
            stream: true,
            stream_options: { include_usage: true },
            ...reasoningStream.extra,
          })) as AsyncIterable<ChatCompletionChunk>;
          const assembled = await collectChunks(stream);
          matches(assembled.reasoning, reasoningStream.expect.reasoning);
          matches(assembled.content, reasoningStream.expect.content);
          expect(assembled.reasoning.length).toBeGreaterThan(0);
          const firstContent = assembled.chunks.findIndex((c) => c.choices.some((choice) => choice.delta?.content));
          const lastReasoning = assembled.chunks.findLastIndex((c) =>
            c.choices.some((choice) => choice.delta?.reasoning_content),
          );
          if (firstContent >= 0)
            expect(lastReasoning, 'every reasoning piece comes before the first content piece').toBeLessThan(
              firstContent,
            );
          if (assembled.content.length >= 20) expect(assembled.reasoning).not.toContain(assembled.content);
          if (reasoningStream.expect.reasoning_tokens !== undefined) {
            expect(assembled.usage?.completion_tokens_details?.reasoning_tokens).toBe(
              reasoningStream.expect.reasoning_tokens,
            );
          }
        });

        if (roundTrip) {
          it('round-trips reasoning_details (signatures) through the assistant message sent back', async () => {
            upstream.route(roundTrip.route, roundTrip.reply);
            const first = (await chatCall(roundTrip.extra)) as ChatCompletion;
            const message = first.choices[0]!.message;
            const details = (message.reasoning_details ?? []) as ReasoningDetail[];
            expect(details.length, 'the recorded answer gives reasoning_details').toBeGreaterThan(0);
            const request = conformanceChatRequest(options.model, roundTrip.extra);
            const followUp = message.tool_calls?.length
              ? message.tool_calls.map((call) => ({
                  role: 'tool' as const,
                  tool_call_id: call.id,
                  content: '{"ok":true}',
                }))
              : [{ role: 'user' as const, content: 'Go on.' }];
            const assistant = {
              role: 'assistant' as const,
              content: message.content,
              ...(message.tool_calls ? { tool_calls: message.tool_calls } : {}),
              reasoning_details: details,
            };
            upstream.clear();
            upstream.route(roundTrip.route, roundTrip.reply);
            await adapter.chatCompletions!(
              { ...request, messages: [...request.messages, assistant, ...followUp] } as ChatCompletionRequest,
              context(),
            );
            const [sent] = upstream.requestsTo(roundTrip.route);
            expect(sent, 'the adapter called the recorded route').toBeDefined();
            roundTrip.assertRequest(sent!, details);
          });
        }
      }
    }

    if (options.embeddings) {
      const embeddings = options.embeddings;
      it('translates embeddings', async () => {
        upstream.route(embeddings.route, embeddings.reply);
        const input = Array.from({ length: embeddings.expect.count }, (_, i) => `text ${i}`);
        const model = options.embeddingModel ?? options.model;
        const response = await adapter.embeddings!({ model, input }, context());
        expect(response.object).toBe('list');
        expect(response.data).toHaveLength(embeddings.expect.count);
        response.data.forEach((item, i) => {
          expect(item.index).toBe(i);
          const vector = item.embedding;
          expect(Array.isArray(vector) ? vector.length : Buffer.from(vector, 'base64').length / 4).toBe(
            embeddings.expect.dimensions,
          );
        });
        if (response.usage) {
          const { prompt_tokens, total_tokens, completion_tokens } = response.usage as {
            prompt_tokens: number;
            total_tokens: number;
            completion_tokens?: number;
          };
          expect(total_tokens, 'usage.total_tokens').toBe(prompt_tokens + (completion_tokens ?? 0));
        }
      });
    }

    describeChatCapabilityCases(options, operationCases);
    describeOperationCases(options, operationCases);
    describeLegacyAndImageEditCases(options, operationCases);
    describeNativeBatchCases(options, operationCases);
    describeUnsupportedOperationCases(options, operationCases);
  });
}
