import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { MAX_TOKENIZED_CHARS, TOKENIZE_BUDGET_MS, countTextTokens } from '../src/index.js';
import { TokenizerPool } from '../src/tokenizer-pool.js';

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
/** What the gateway counted before the worker pool: gpt-tokenizer on the whole text. */
const wholeCount = (text: string) => countTokens(text, PLAIN_TEXT);
/** `n` random CJK unified ideographs (U+4E00 to U+9E1F), without spaces. */
function randomCjk(n: number): string {
  const codes = new Uint16Array(n).map(() => 0x4e00 + Math.floor(Math.random() * 20_000));
  return new TextDecoder('utf-16le').decode(codes);
}

describe('countTextTokens', { timeout: 60_000 }, () => {
  it('counts special-token strings as plain text instead of throwing', async () => {
    expect(await countTextTokens('a <|endoftext|> b <|fim_prefix|>')).toBeGreaterThan(4);
  });

  it('counts ordinary text exactly as the whole text counts, in segments, when the time budget is not the limit', async () => {
    // The gateway's pool stops at 1 s and extrapolates; on a loaded machine that would make this test depend on time.
    const unhurried = new TokenizerPool({
      workerUrl: new URL('../dist/tokenize-worker.js', import.meta.url),
      size: 1,
      budgetMs: 60_000,
      maxQueuedChars: MAX_TOKENIZED_CHARS,
    });
    const texts = {
      english: "The quick brown fox jumps over the lazy dog. It isn't lazy; it's resting.\n\n".repeat(600),
      code: readFileSync(new URL('../src/key-accounting.ts', import.meta.url), 'utf8'),
      json: JSON.stringify(
        Array.from({ length: 400 }, (_, i) => ({
          id: `item-${i}`,
          price: i * 1.25,
          tags: ['a', 'b'],
          nested: { ok: i % 2 === 0 },
        })),
      ),
      chinese: '我们今天去公园散步，天气非常好。孩子们在草地上玩耍，老人们在树下下棋。'.repeat(500),
      japanese: '東京は日本の首都です。カタカナとひらがなを混ぜて書きます！数字123も入ります。'.repeat(400),
      mixed:
        'naïve café — résumé 😀🎉 👍🏽 Ж Ωμέγα عربى 𝐀𝐁𝐂 e\u0301 https://example.com/a?b=1&c=2 $1,234.56\r\n\t'.repeat(
          300,
        ),
    };
    for (const [name, text] of Object.entries(texts)) {
      expect({ name, ...(await unhurried.count(text)) }).toEqual({
        name,
        tokens: wholeCount(text),
        chars: text.length,
      });
    }
  });

  it('counts a long run without spaces within 1 % of the whole count', async () => {
    const text = randomCjk(4096);
    const exact = wholeCount(text);
    const counted = await countTextTokens(text);
    expect(Math.abs(counted - exact) / exact).toBeLessThan(0.01);
  });

  it('never holds the event loop, and answers 1 Mi random CJK characters within its time budget', async () => {
    const text = randomCjk(MAX_TOKENIZED_CHARS);
    await countTextTokens('warm up the worker');
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    const tokens = await countTextTokens(text);
    const elapsed = performance.now() - started;
    delay.disable();
    // The part counted within the budget is extrapolated: random CJK characters are about 1.9 tokens each.
    expect(tokens).toBeGreaterThan(1.8 * text.length);
    expect(tokens).toBeLessThan(2 * text.length);
    expect(elapsed).toBeLessThan(TOKENIZE_BUDGET_MS + 1_000);
    // The whole text as one piece takes minutes of CPU; the thread that runs the event loop does none of it (the bound
    // leaves room for a CI machine shared with other test files, where an idle process sees 200-300 ms delays).
    expect(delay.max / 1e6).toBeLessThan(1_000);
  });

  it("estimates past the cap, at the counted part's ratio", async () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(80_000); // 3.6 MB
    const tokens = await countTextTokens(text);
    expect(text.length).toBeGreaterThan(MAX_TOKENIZED_CHARS);
    // 10 tokens per sentence.
    expect(tokens).toBeGreaterThan(790_000);
    expect(tokens).toBeLessThan(810_000);
  });
});
