import { readdirSync } from 'node:fs';
import type { ChatCompletionChunk } from '@switchyard/core';
import { GatewayError } from '@switchyard/core';
import { eventStreamFrames, testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import { convertConverseStream, decodeEventStream } from '../src/index.js';

const fixtures = testkitFixtures();
const options = {
  provider: 'bedrock',
  model: 'm',
  requestId: 'req-1',
  signal: new AbortController().signal,
  secrets: [],
};

/** The frames as a byte stream split at awkward places (every 7 bytes), as a network may deliver them. */
async function* split(frames: Uint8Array[], size = 7): AsyncGenerator<Uint8Array> {
  const all = Buffer.concat(frames);
  for (let i = 0; i < all.length; i += size) yield all.subarray(i, i + size);
}

async function collect(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const out: ChatCompletionChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe('decodeEventStream', () => {
  it('decodes the AWS positive test vectors, also when split across reads', async () => {
    const dir = fixtures.path('amazon-bedrock/eventstream-test-vectors/encoded/positive');
    for (const name of readdirSync(dir)) {
      const bytes = fixtures.bytes(`amazon-bedrock/eventstream-test-vectors/encoded/positive/${name}`);
      const decoded = fixtures.json<{ payload: string | null }>(
        `amazon-bedrock/eventstream-test-vectors/decoded/positive/${name}`,
      );
      const messages = [];
      for await (const message of decodeEventStream(split([bytes], 3))) messages.push(message);
      expect(messages, name).toHaveLength(1);
      expect(Buffer.from(messages[0]!.body).toString('base64'), name).toBe(decoded.payload ?? '');
    }
  });

  it('refuses the AWS negative test vectors (bad CRC or length)', async () => {
    const dir = fixtures.path('amazon-bedrock/eventstream-test-vectors/encoded/negative');
    for (const name of readdirSync(dir)) {
      const bytes = fixtures.bytes(`amazon-bedrock/eventstream-test-vectors/encoded/negative/${name}`);
      await expect(
        (async () => {
          for await (const _ of decodeEventStream(split([bytes]))) {
            // consume
          }
        })(),
        name,
      ).rejects.toThrow();
    }
  });
});

describe('convertConverseStream', () => {
  it('translates the recorded text stream: role, text, finish, then usage from the trailing metadata', async () => {
    const chunks = await collect(
      convertConverseStream(
        decodeEventStream(
          split(eventStreamFrames(fixtures.chunkLines('amazon-bedrock/amazon-bedrock-text.chunks.txt'))),
        ),
        options,
      ),
    );
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toMatch(/^Let me count the "r"s in "strawberry":/);
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 22, completion_tokens: 55, total_tokens: 77 },
    });
  });

  it('numbers tool calls by call, not by content block, and streams their arguments', async () => {
    const chunks = await collect(
      convertConverseStream(
        decodeEventStream(
          split(eventStreamFrames(fixtures.chunkLines('amazon-bedrock/amazon-bedrock-json-with-tool.1.chunks.txt'))),
        ),
        options,
      ),
    );
    const calls = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(calls).toEqual([
      { index: 0, id: 'tool-1', type: 'function', function: { name: 'get-weather', arguments: '' } },
      { index: 0, function: { arguments: '{"location":"SF"}' } },
      { index: 1, id: 'json-tool-id', type: 'function', function: { name: 'json', arguments: '' } },
      { index: 1, function: { arguments: '{"result":"data"}' } },
    ]);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');
  });

  it('keeps usage that arrives before messageStop', async () => {
    const chunks = await collect(
      convertConverseStream(
        decodeEventStream(
          split(eventStreamFrames(fixtures.chunkLines('amazon-bedrock/amazon-bedrock-tool-call.1.chunks.txt'))),
        ),
        options,
      ),
    );
    expect(chunks[0]!.choices[0]!.delta).toMatchObject({
      role: 'assistant',
      tool_calls: [{ index: 0, id: 'tool-use-id' }],
    }); // No messageStart here.
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 125, completion_tokens: 45 } });
    expect(
      chunks
        .flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])
        .map((c) => c.function?.arguments)
        .join(''),
    ).toBe('{"value":"Sparkle Day"}');
  });

  it('throws the mapped error when an exception frame follows two content frames', async () => {
    const lines = fixtures.chunkLines('amazon-bedrock/amazon-bedrock-text.chunks.txt').slice(0, 3);
    const frames = eventStreamFrames(lines, {
      type: 'throttlingException',
      message: 'Too many tokens, please wait before trying again.',
    });
    const seen: ChatCompletionChunk[] = [];
    const error = await (async () => {
      for await (const chunk of convertConverseStream(decodeEventStream(split(frames)), options)) seen.push(chunk);
    })().catch((e: unknown) => e);
    expect(seen.map((c) => c.choices[0]?.delta?.content).join('')).toBe('Let me count the "');
    expect(GatewayError.isInstance(error)).toBe(true);
    expect((error as GatewayError).status).toBe(429);
    expect((error as GatewayError).message).toBe('Too many tokens, please wait before trying again.');
  });

  it('throws 502 when the stream ends before messageStop', async () => {
    const lines = fixtures.chunkLines('amazon-bedrock/amazon-bedrock-text.chunks.txt').slice(0, 3);
    await expect(
      collect(convertConverseStream(decodeEventStream(split(eventStreamFrames(lines))), options)),
    ).rejects.toMatchObject({ status: 502 });
  });
});
