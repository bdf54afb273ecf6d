import type { ChatCompletion, ChatCompletionChunk, GatewayWarning } from '@switchyard/core';
import { type MockUpstream, sseFrames, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import { collectChunks } from '@switchyard/testkit/conformance';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGoogle, GEMINI_THINKING_BUDGETS } from '../src/index.js';

const KEY = 'AIza-google-unit-secret-1234';
const fixtures = testkitFixtures();
const GENERATE = 'POST /v1beta/models/*:generateContent';
const STREAM = 'POST /v1beta/models/*:streamGenerateContent';
let upstream: MockUpstream;
let warnings: GatewayWarning[] = [];
const context = () => ({
  signal: new AbortController().signal,
  requestId: 'req-1',
  provider: 'google',
  warn: (w: GatewayWarning) => warnings.push(w),
});
const adapter = () => createGoogle({ apiKey: KEY, baseURL: `${upstream.url}/v1beta` });
const ask = (extra: Record<string, unknown> = {}) =>
  adapter().chatCompletions!(
    { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'How many days until New Year?' }], ...extra },
    context(),
  );
const sentBody = () =>
  upstream.requests.at(-1)!.json as {
    contents: { role: string; parts: Record<string, unknown>[] }[];
    generationConfig?: Record<string, unknown>;
  };
type Part = { text?: string; thought?: boolean; thoughtSignature?: string; functionCall?: unknown };
const recordedParts = (file: string) =>
  fixtures
    .text(file)
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data: '))
    .flatMap(
      (line) =>
        (JSON.parse(line.slice(6)) as { candidates: { content: { parts: Part[] } }[] }).candidates[0]!.content.parts,
    );

beforeAll(async () => {
  upstream = await startMockUpstream();
});
beforeEach(() => {
  upstream.clear();
  warnings = [];
});
afterAll(() => upstream.close());

describe('reasoning_effort -> thinkingConfig', () => {
  const config = async (extra: Record<string, unknown>) => {
    upstream.route(GENERATE, { json: fixtures.json('google/google-text.json') });
    await ask(extra);
    return sentBody().generationConfig?.thinkingConfig;
  };

  it('sends a thinkingBudget per level on Gemini 2.5, with thought summaries', async () => {
    expect(await config({ reasoning_effort: 'low' })).toEqual({
      thinkingBudget: GEMINI_THINKING_BUDGETS.low,
      includeThoughts: true,
    });
    expect(await config({ reasoning_effort: 'high' })).toEqual({ thinkingBudget: 24576, includeThoughts: true });
    expect(await config({ reasoning_effort: 'none' })).toEqual({ thinkingBudget: 0 });
    expect(warnings).toEqual([]);
  });

  it('cannot turn thinking off on Gemini 2.5 Pro: the lowest budget, with a warning', async () => {
    expect(await config({ model: 'gemini-2.5-pro', reasoning_effort: 'none' })).toEqual({
      thinkingBudget: 128,
      includeThoughts: true,
    });
    expect(warnings.map((w) => w.param)).toEqual(['reasoning_effort']);
  });

  it('sends a thinkingLevel on Gemini 3 (Pro knows low and high)', async () => {
    expect(await config({ model: 'gemini-3-pro-preview', reasoning_effort: 'medium' })).toEqual({
      thinkingLevel: 'high',
      includeThoughts: true,
    });
    expect(await config({ model: 'gemini-3-pro-preview', reasoning_effort: 'minimal' })).toEqual({
      thinkingLevel: 'low',
      includeThoughts: true,
    });
    expect(await config({ model: 'gemini-3-flash-preview', reasoning_effort: 'minimal' })).toEqual({
      thinkingLevel: 'minimal',
      includeThoughts: true,
    });
  });

  it("passes the client's own thinkingConfig through", async () => {
    expect(await config({ thinkingConfig: { thinkingBudget: 777 }, reasoning_effort: 'low' })).toEqual({
      thinkingBudget: 777,
    });
    expect(warnings.map((w) => w.code)).toEqual(['ignored_parameter']);
  });

  it('sends nothing about thinking when the request asks nothing', async () => {
    expect(await config({})).toBeUndefined();
  });
});

describe('thoughts and signatures in answers', () => {
  it('returns thought summaries as reasoning_content and signatures as reasoning_details tied to the tool call', async () => {
    upstream.route(GENERATE, {
      json: fixtures.json('google/unary-success-thinking-function-call-thought-summary-signature.json'),
    });
    const message = ((await ask({ reasoning_effort: 'low' })) as ChatCompletion).choices[0]!.message;
    expect(message.reasoning_content).toMatch(/^\*\*Thinking Through the New Year's Eve Calculation\*\*/);
    expect(message.content).toBeNull();
    const call = message.tool_calls![0]!;
    expect(call.function.name).toBe('now');
    expect(message.reasoning_details).toEqual([
      {
        type: 'reasoning.encrypted',
        data: expect.stringMatching(/^CtQOAVSoXO74/),
        format: 'google-gemini-v1',
        index: 0,
        id: call.id,
      },
    ]);
  });

  it('streams thought summaries as reasoning_content before the content, without duplicating text', async () => {
    const file = 'google/streaming-success-thinking-reply-thought-summary.txt';
    upstream.route(STREAM, { body: fixtures.text(file) });
    const out = await collectChunks(
      (await ask({ stream: true, reasoning_effort: 'low' })) as AsyncIterable<ChatCompletionChunk>,
    );
    const parts = recordedParts(file);
    expect(out.reasoning).toBe(
      parts
        .filter((p) => p.thought)
        .map((p) => p.text)
        .join(''),
    );
    expect(out.content).toBe(
      parts
        .filter((p) => !p.thought)
        .map((p) => p.text ?? '')
        .join(''),
    );
    expect(out.content).not.toContain('Exploring Sky Color');
    const firstContent = out.chunks.findIndex((c) => c.choices[0]?.delta.content);
    const lastReasoning = out.chunks.findLastIndex((c) => c.choices[0]?.delta.reasoning_content);
    expect(lastReasoning).toBeGreaterThanOrEqual(0);
    expect(lastReasoning).toBeLessThan(firstContent);
    expect(out.usage).toMatchObject({ completion_tokens_details: { reasoning_tokens: expect.any(Number) } });
  });

  it('splits an event holding both a thought and answer text: the reasoning chunk comes first', async () => {
    const event = {
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'Thinking...', thought: true }, { text: 'Answer.' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
    };
    upstream.route(STREAM, { chunks: sseFrames([JSON.stringify(event)], 'gemini') });
    const out = await collectChunks((await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>);
    expect(out.chunks.map((c) => c.choices[0]?.delta)).toEqual([
      { role: 'assistant', reasoning_content: 'Thinking...' },
      { content: 'Answer.' },
    ]);
    expect(out.finishReasons).toEqual(['stop']);
  });

  it('streams the Gemini 3 signature of an empty text part as a reasoning_details entry (recording)', async () => {
    const lines = fixtures.chunkLines('google/google-reasoning-gemini3.chunks.txt');
    upstream.route(STREAM, { chunks: sseFrames(lines, 'gemini') });
    const out = await collectChunks(
      (await ask({ model: 'gemini-3-pro-preview', stream: true })) as AsyncIterable<ChatCompletionChunk>,
    );
    const signature = (JSON.parse(lines.at(-1)!) as { candidates: { content: { parts: Part[] } }[] }).candidates[0]!
      .content.parts[0]!.thoughtSignature;
    expect(out.content).toBe('There are **3** "r"s in strawberry.\n\nSt**r**awbe**rr**y');
    expect(out.reasoningDetails).toEqual([
      { type: 'reasoning.encrypted', data: signature, format: 'google-gemini-v1', index: 0 },
    ]);
    expect(out.usage).toMatchObject({
      completion_tokens: 23 + 302,
      completion_tokens_details: { reasoning_tokens: 302 },
    });
  });
});

describe('thought signatures across turns', () => {
  it('sends each signature back on the part it came with: the function call (by id), else the first part', async () => {
    upstream.route(GENERATE, {
      json: fixtures.json('google/unary-success-thinking-function-call-thought-summary-signature.json'),
    });
    const first = ((await ask({ reasoning_effort: 'low' })) as ChatCompletion).choices[0]!.message;
    const signature = first.reasoning_details![0]!.data;
    // The signature must come from reasoning_details (matched by tool call id), not only from the id itself.
    const plain = 'call_plain_1';
    const toolCalls = first.tool_calls!.map((c) => ({ ...c, id: plain }));
    const details = first.reasoning_details!.map((d) => ({ ...d, id: plain }));
    upstream.route(GENERATE, { json: fixtures.json('google/google-reasoning-gemini3.json') });
    const answer = (await ask({
      model: 'gemini-3-pro-preview',
      reasoning_effort: 'low',
      messages: [
        { role: 'user', content: 'How many days until New Year?' },
        { role: 'assistant', content: null, tool_calls: toolCalls, reasoning_details: details },
        { role: 'tool', tool_call_id: plain, content: '{"now":"2025-12-01"}' },
      ],
    })) as ChatCompletion;
    const model = sentBody().contents[1]!;
    expect(model.role).toBe('model');
    expect(model.parts).toEqual([{ functionCall: { name: 'now', args: {} }, thoughtSignature: signature }]);
    const textSignature = answer.choices[0]!.message.reasoning_details![0]!.data;
    expect(textSignature).toMatch(/^EswFCskF/);

    upstream.route(GENERATE, { json: fixtures.json('google/google-text.json') });
    await ask({
      model: 'gemini-3-pro-preview',
      messages: [
        { role: 'user', content: 'How many r in strawberry?' },
        {
          role: 'assistant',
          content: answer.choices[0]!.message.content,
          reasoning_details: answer.choices[0]!.message.reasoning_details,
        },
        { role: 'user', content: 'And in raspberry?' },
      ],
    });
    expect(sentBody().contents[1]!.parts).toEqual([
      { text: answer.choices[0]!.message.content, thoughtSignature: textSignature },
    ]);
  });
});

describe('fidelity', () => {
  it('ends a stream that breaks with a JSON error body after its events with an error, never a clean finish (recording)', async () => {
    upstream.route(STREAM, { body: fixtures.text('google/streaming-failure-error-mid-stream.txt') });
    const stream = (await ask({ stream: true })) as AsyncIterable<ChatCompletionChunk>;
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? '');
    })().catch((e: unknown) => e);
    expect(seen.join('')).toBe('First Second ');
    expect(error).toMatchObject({ status: 502, type: 'server_error', message: 'The operation was cancelled.' });
  });

  it('names the schema keywords it had to drop in a warning', async () => {
    upstream.route(GENERATE, { json: fixtures.json('google/google-text.json') });
    const schema = {
      type: 'object',
      additionalProperties: false,
      properties: { city: { type: 'string', default: 'Paris' }, kind: { const: 'town' } },
    };
    await ask({ response_format: { type: 'json_schema', json_schema: { name: 'place', schema } } });
    expect(sentBody().generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseSchema: { type: 'object', properties: { city: { type: 'string' }, kind: { enum: ['town'] } } },
    });
    expect(warnings).toEqual([
      {
        code: 'dropped_schema_keywords',
        param: 'response_format.json_schema.schema',
        message: expect.stringContaining('additionalProperties, properties.city.default'),
      },
    ]);
  });

  it('maps logprobs/top_logprobs and seed, and returns logprobsResult as logprobs', async () => {
    const recorded = fixtures.json<{ candidates: Record<string, unknown>[] }>('google/google-text.json');
    const logprobsResult = {
      chosenCandidates: [{ token: 'There', logProbability: -0.1 }],
      topCandidates: [
        {
          candidates: [
            { token: 'There', logProbability: -0.1 },
            { token: 'The', logProbability: -2.5 },
          ],
        },
      ],
    };
    upstream.route(GENERATE, { json: { ...recorded, candidates: [{ ...recorded.candidates[0], logprobsResult }] } });
    const completion = (await ask({ logprobs: true, top_logprobs: 2, seed: 42 })) as ChatCompletion;
    expect(sentBody().generationConfig).toMatchObject({ responseLogprobs: true, logprobs: 2, seed: 42 });
    expect(completion.choices[0]!.logprobs).toEqual({
      content: [
        {
          token: 'There',
          logprob: -0.1,
          bytes: [84, 104, 101, 114, 101],
          top_logprobs: [
            { token: 'There', logprob: -0.1, bytes: [84, 104, 101, 114, 101] },
            { token: 'The', logprob: -2.5, bytes: [84, 104, 101] },
          ],
        },
      ],
      refusal: null,
    });
  });
});
