import { isScannedRun } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { scanOpenAIChunkBatches } from '../src/parse-openai-chunk-stream.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4.1-nano',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

async function* oneRead(text: string): AsyncGenerator<Uint8Array> {
  yield new TextEncoder().encode(text);
}

describe('scanOpenAIChunkBatches', () => {
  it("yields a stream's first chunk alone, ahead of the rest of the network read that carried it", async () => {
    const events = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
    ];
    const body = oneRead(`${events.map((e) => `data: ${e}\n\n`).join('')}data: [DONE]\n\n`);
    const batches: string[][] = [];
    for await (const batch of scanOpenAIChunkBatches(
      'openai',
      body,
      new AbortController().signal,
      [],
      undefined,
      true,
    )) {
      batches.push(
        batch.flatMap((item) =>
          isScannedRun(item) ? Array.from({ length: item.count }, (_, k) => item.textAt(k)) : [item.text],
        ),
      );
    }
    expect(batches).toEqual([[events[0]], events.slice(1)]);
  });

  it('gives the plain text deltas that follow one another in a plain read as runs of its bytes, and only those', async () => {
    const text = (c: string) => chunk({ content: c });
    const reads = [
      // The role chunk and the first text delta, parsed (the scanner learns the stream's shape from it).
      `data: ${chunk({ role: 'assistant', content: '' })}\n\ndata: ${text('a')}\n\n`,
      `data: ${text('b')}\n\ndata: ${text('c')}\n\ndata: \n\ndata: ${text('d')}\n\n`,
      `data: ${text('\u00e9')}\n\n`,
      `data: ${text('e')}\n\ndata: ${chunk({}, 'stop')}\n\ndata: [DONE]\n\n`,
    ];
    async function* body(): AsyncGenerator<Uint8Array> {
      for (const read of reads) yield new TextEncoder().encode(read);
    }
    const runs: { texts: string[]; bytes: string }[] = [];
    const plain: string[] = [];
    for await (const batch of scanOpenAIChunkBatches(
      'openai',
      body(),
      new AbortController().signal,
      [],
      undefined,
      true,
    )) {
      for (const item of batch) {
        if (!isScannedRun(item)) {
          if (item.chunk === undefined) plain.push(item.content!);
          continue;
        }
        const texts = Array.from({ length: item.count }, (_, k) => item.textAt(k));
        for (let k = 0; k < item.count; k++) plain.push(item.contentAt(k));
        runs.push({ texts, bytes: new TextDecoder().decode(item.bytes.subarray(item.start, item.end)) });
      }
    }
    expect(plain).toEqual(['b', 'c', 'd', '\u00e9', 'e']);
    // A blank event between c and d ends a run; a read beyond ASCII has runs too.
    expect(runs.map((r) => r.texts)).toEqual([[text('b'), text('c')], [text('d')], [text('\u00e9')], [text('e')]]);
    for (const run of runs) expect(run.bytes).toBe(run.texts.map((t) => `data: ${t}\n\n`).join(''));
  });
});
