import { describe, expect, it } from 'vitest';
import { scanOpenAIChunkBatches } from '../src/parse-openai-chunk-stream.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4.1-nano', choices: [{ index: 0, delta, finish_reason: finish }] });

async function* oneRead(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

describe('scanOpenAIChunkBatches', () => {
  it("yields a stream's first chunk alone, ahead of the rest of the network read that carried it", async () => {
    const events = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hel' }), chunk({ content: 'lo' }), chunk({}, 'stop')];
    const body = oneRead(`${events.map((e) => `data: ${e}\n\n`).join('')}data: [DONE]\n\n`);
    const batches: string[][] = [];
    for await (const batch of scanOpenAIChunkBatches('openai', body, new AbortController().signal, [], undefined, true)) {
      batches.push(batch.map((item) => item.text));
    }
    expect(batches).toEqual([[events[0]], events.slice(1)]);
  });
});
