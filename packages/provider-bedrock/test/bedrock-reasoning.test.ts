import type { ChatCompletion, ChatCompletionChunk, GatewayWarning } from '@switchyard/core';
import { eventStreamFrames, type MockUpstream, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import { collectChunks } from '@switchyard/testkit/conformance';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBedrock } from '../src/index.js';

const fixtures = testkitFixtures();
const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
let upstream: MockUpstream;
let warnings: GatewayWarning[] = [];
const context = () => ({
  signal: new AbortController().signal,
  requestId: 'req-1',
  provider: 'bedrock',
  warn: (w: GatewayWarning) => warnings.push(w),
});
const adapter = () =>
  createBedrock({
    region: 'us-east-1',
    credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret-access-key-0000' },
    baseURL: upstream.url,
  });
const ask = (extra: Record<string, unknown> = {}) =>
  adapter().chatCompletions!(
    { model: MODEL, messages: [{ role: 'user', content: 'How many r in strawberry?' }], ...extra },
    context(),
  );
const sentBody = () =>
  upstream.requests.at(-1)!.json as Record<string, unknown> & {
    messages: { role: string; content: Record<string, unknown>[] }[];
  };
const recorded = fixtures.json<{
  output: {
    message: {
      content: { reasoningContent?: { reasoningText: { text: string; signature: string } }; text?: string }[];
    };
  };
}>('amazon-bedrock/amazon-bedrock-reasoning.json');
const recordedReasoning = recorded.output.message.content[0]!.reasoningContent!.reasoningText;

beforeAll(async () => {
  upstream = await startMockUpstream({
    routes: {
      'POST /model/*/converse': { json: recorded },
      'POST /model/*/converse-stream': {
        headers: { 'content-type': 'application/vnd.amazon.eventstream' },
        chunks: eventStreamFrames(fixtures.chunkLines('amazon-bedrock/amazon-bedrock-reasoning.chunks.txt')),
      },
    },
  });
});
beforeEach(() => {
  upstream.clear();
  warnings = [];
});
afterAll(() => upstream.close());

describe('Bedrock reasoning', () => {
  it('maps reasoning_effort to Claude thinking in additionalModelRequestFields, raising maxTokens above the budget', async () => {
    await ask({ reasoning_effort: 'medium', max_tokens: 1000, temperature: 0.3 });
    expect(sentBody().additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 8192 } });
    expect(sentBody().inferenceConfig).toEqual({ maxTokens: 9192 });
    expect(warnings.map((w) => [w.code, w.param])).toEqual([
      ['max_tokens_raised', 'max_tokens'],
      ['unsupported_parameter', 'temperature'],
    ]);
  });

  it("passes the client's own additionalModelRequestFields through, and says reasoning_effort elsewhere was ignored", async () => {
    await ask({ additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 2000 } } });
    expect(sentBody().additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2000 } });
    await ask({ model: 'amazon.nova-micro-v1:0', reasoning_effort: 'low' });
    expect(sentBody().additionalModelRequestFields).toBeUndefined();
    expect(warnings.at(-1)).toMatchObject({ code: 'unsupported_parameter', param: 'reasoning_effort' });
  });

  it('returns reasoning blocks as reasoning_content and signed reasoning_details (recording)', async () => {
    const message = ((await ask({ reasoning_effort: 'low' })) as ChatCompletion).choices[0]!.message;
    expect(message.content).toBe(recorded.output.message.content[1]!.text);
    expect(message.reasoning_content).toBe(recordedReasoning.text);
    expect(message.reasoning_details).toEqual([
      {
        type: 'reasoning.text',
        text: recordedReasoning.text,
        signature: recordedReasoning.signature,
        format: 'amazon-bedrock-converse-v1',
        index: 0,
      },
    ]);
  });

  it('streams reasoning deltas before the text, then the signed entry (recording)', async () => {
    const out = await collectChunks(
      (await ask({ stream: true, reasoning_effort: 'low' })) as AsyncIterable<ChatCompletionChunk>,
    );
    expect(out.reasoning).toBe(
      'Let me count the r\'s in "strawberry":\n\ns-t-r-a-w-b-e-r-r-y\n\nr appears at positions 3, 8, and 9.\n\nSo there are 3 r\'s.',
    );
    expect(out.content).toBe('There are **3** r\'s in "strawberry":\n\n1. st**r**awbe**r****r**y');
    const firstContent = out.chunks.findIndex((c) => c.choices[0]?.delta.content);
    expect(out.chunks.findLastIndex((c) => c.choices[0]?.delta.reasoning_content)).toBeLessThan(firstContent);
    expect(out.reasoningDetails).toEqual([
      expect.objectContaining({
        type: 'reasoning.text',
        text: out.reasoning,
        signature: expect.stringMatching(/^Ep0CCkgI/),
      }),
    ]);
  });

  it('sends reasoning_details back as the reasoning blocks that open the assistant turn', async () => {
    const first = ((await ask({ reasoning_effort: 'low' })) as ChatCompletion).choices[0]!.message;
    await ask({
      reasoning_effort: 'low',
      messages: [
        { role: 'user', content: 'How many r in strawberry?' },
        { role: 'assistant', content: first.content, reasoning_details: first.reasoning_details },
        { role: 'user', content: 'And in raspberry?' },
      ],
    });
    expect(sentBody().messages[1]).toEqual({
      role: 'assistant',
      content: [
        {
          reasoningContent: { reasoningText: { text: recordedReasoning.text, signature: recordedReasoning.signature } },
        },
        { text: first.content },
      ],
    });
  });
});
