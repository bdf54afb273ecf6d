import type Anthropic from '@anthropic-ai/sdk';
import { type MockUpstream, testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { multiProviderRoutes, multiProviderYaml } from './helpers/multi-provider-upstream.js';

// `POST /v1/messages` with the official @anthropic-ai/sdk for the cases e2e-messages.test.ts does not cover: streaming,
// images and tool round trips through Gemini, and tool results, images and stop sequences passed through to Anthropic.
const KEY = 'sk-switchyard-messages-providers-0123';
const fixtures = testkitFixtures();
type GeminiChunk = {
  candidates: { content: { parts: { text?: string; thought?: boolean }[] } }[];
  usageMetadata: { promptTokenCount: number; candidatesTokenCount: number; thoughtsTokenCount?: number };
};
const geminiChunks = fixtures
  .chunkLines('google/google-text.chunks.txt')
  .map((line) => JSON.parse(line) as GeminiChunk);
const geminiStreamText = geminiChunks
  .flatMap((c) => c.candidates[0]!.content.parts.filter((p) => !p.thought).map((p) => p.text ?? ''))
  .join('');
const tools: Anthropic.Tool[] = [
  {
    name: 'weather',
    description: 'Weather of a place',
    input_schema: { type: 'object', properties: { location: { type: 'string' } } },
  },
];

let upstream: MockUpstream;
let client: Anthropic;

useGatewayWithUpstreams(
  {
    upstreams: { multi: { routes: multiProviderRoutes() } },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
${multiProviderYaml(url.multi)}`,
  },
  (gateway) =>
    ({
      upstreams: { multi: upstream },
      anthropic: client,
    } = gateway),
);

const lastBody = (key: string) => upstream.requestsTo(key).at(-1)!.json as Record<string, unknown>;

describe('messages.stream routed to Gemini', () => {
  it('assembles the text of the Gemini stream, with the Anthropic events in order', async () => {
    const stream = client.messages.stream({
      model: 'gemini',
      max_tokens: 500,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'How many r in strawberry?' }],
    });
    const types: string[] = [];
    stream.on('streamEvent', (event) => void types.push(event.type));
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(geminiStreamText.length).toBeGreaterThan(10);
    expect(text).toBe(geminiStreamText);
    expect((final.content[0] as Anthropic.TextBlock).text).toBe(geminiStreamText);
    expect(final).toMatchObject({ role: 'assistant', model: 'gemini', stop_reason: 'end_turn' });
    expect(final.usage.input_tokens).toBe(geminiChunks.at(-1)!.usageMetadata.promptTokenCount);
    expect(final.usage.output_tokens).toBeGreaterThan(0);
    // message_start, one text block (start, deltas, stop), message_delta, message_stop; pings may come anywhere.
    const order = types.filter((t) => t !== 'ping');
    expect(order[0]).toBe('message_start');
    expect(order[1]).toBe('content_block_start');
    expect(order.slice(2, -3).every((t) => t === 'content_block_delta')).toBe(true);
    expect(order.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(lastBody('POST /v1beta/models/*:streamGenerateContent')).toMatchObject({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
    });
    expect(upstream.requestsTo('POST /v1beta/models/*:streamGenerateContent').at(-1)!.path).toContain(
      'gemini-3-pro-preview:streamGenerateContent',
    );
  });

  it('streams a Gemini tool call as a tool_use block', async () => {
    const final = await client.messages
      .stream({ model: 'gemini', max_tokens: 100, tools, messages: [{ role: 'user', content: 'Weather?' }] })
      .finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.find((b) => b.type === 'tool_use')).toMatchObject({
      name: 'weather',
      input: { location: 'San Francisco' },
    });
  });
});

describe('messages.create routed to Gemini', () => {
  it('round-trips a tool use: the tool_result goes to Gemini as a functionResponse', async () => {
    const first = await client.messages.create({
      model: 'gemini',
      max_tokens: 100,
      tools,
      messages: [{ role: 'user', content: 'Weather in San Francisco?' }],
    });
    const use = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(use).toMatchObject({ name: 'weather', input: { location: 'San Francisco' } });
    await client.messages.create({
      model: 'gemini',
      max_tokens: 100,
      tools,
      messages: [
        { role: 'user', content: 'Weather in San Francisco?' },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: '18°C, fog' }] },
      ],
    });
    const contents = lastBody('POST /v1beta/models/*:generateContent').contents as {
      role: string;
      parts: Record<string, unknown>[];
    }[];
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[1]!.parts.find((p) => p.functionCall)).toMatchObject({
      functionCall: { name: 'weather', args: { location: 'San Francisco' } },
    });
    expect(JSON.stringify(contents[2]!.parts)).toContain('18°C, fog');
    expect(contents[2]!.parts[0]).toMatchObject({ functionResponse: { name: 'weather' } });
  });

  it('sends a base64 image as inline data', async () => {
    await client.messages.create({
      model: 'gemini',
      max_tokens: 50,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    const contents = lastBody('POST /v1beta/models/*:generateContent').contents as {
      parts: Record<string, unknown>[];
    }[];
    expect(contents[0]!.parts).toEqual([
      { text: 'What is this?' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
    ]);
  });
});

describe('messages passed through to Anthropic', () => {
  it('sends system, stop sequences, images and a tool round trip as they are', async () => {
    const first = await client.messages.create({
      model: 'claude',
      max_tokens: 100,
      tools,
      messages: [{ role: 'user', content: 'Update the issues' }],
    });
    const use = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(use).toMatchObject({ type: 'tool_use', name: 'updateIssueList' });
    const request: Anthropic.MessageCreateParamsNonStreaming = {
      model: 'claude',
      max_tokens: 100,
      system: 'Be brief.',
      stop_sequences: ['END'],
      tools,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Update the issues, see the picture' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          ],
        },
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'done' }] },
      ],
    };
    const second = await client.messages.create(request);
    expect(lastBody('POST /v1/messages')).toEqual({ ...request, model: 'claude-sonnet-4-5-20250929' });
    // Unchanged but for `model`: the id the client asked for.
    expect(second).toEqual({ ...fixtures.json<object>('anthropic/anthropic-tool-no-args.json'), model: 'claude' });
  });

  it('streams text unchanged: the SDK assembles the recorded text', async () => {
    const recorded = fixtures
      .chunkLines('anthropic/anthropic-text.chunks.txt')
      .map((line) => JSON.parse(line) as { type: string; delta?: { type: string; text?: string } })
      .flatMap((e) => (e.type === 'content_block_delta' && e.delta?.type === 'text_delta' ? [e.delta.text!] : []))
      .join('');
    const stream = client.messages.stream({
      model: 'claude',
      max_tokens: 100,
      system: 'Be brief.',
      stop_sequences: ['END'],
      messages: [{ role: 'user', content: 'Hello' }],
    });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe(recorded);
    expect((final.content[0] as Anthropic.TextBlock).text).toBe(recorded);
    expect(lastBody('POST /v1/messages')).toMatchObject({
      system: 'Be brief.',
      stop_sequences: ['END'],
      stream: true,
      model: 'claude-sonnet-4-5-20250929',
    });
  });
});
