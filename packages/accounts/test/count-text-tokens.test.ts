import { describe, expect, it } from 'vitest';
import { MAX_TOKENIZED_CHARS, countTextTokens } from '../src/index.js';

describe('countTextTokens', { timeout: 30_000 }, () => {
  it('counts special-token strings as plain text instead of throwing', async () => {
    expect(await countTextTokens('a <|endoftext|> b <|fim_prefix|>')).toBeGreaterThan(4);
  });

  it('keeps the event loop turning while it counts megabytes, and estimates past the cap', async () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(80_000); // 3.6 MB
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    const tokens = await countTextTokens(text);
    clearInterval(ticker);
    expect(text.length).toBeGreaterThan(MAX_TOKENIZED_CHARS);
    expect(ticks).toBeGreaterThan(0);
    // About 10 tokens per sentence.
    expect(tokens).toBeGreaterThan(600_000);
    expect(tokens).toBeLessThan(1_000_000);
  });
});
