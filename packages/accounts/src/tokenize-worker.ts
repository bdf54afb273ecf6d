import { parentPort } from 'node:worker_threads';
import { countTokens } from 'gpt-tokenizer';
import { countInSegments } from './segment-text.js';
import type { TokenizeJob, TokenizeResult, TokenizerReady } from './tokenizer-pool.js';

/** Special tokens such as `<|endoftext|>` are counted as the plain text they are (gpt-tokenizer throws by default). */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
const count = (segment: string) => countTokens(segment, PLAIN_TEXT);

// A worker thread of the tokenizer pool: counts each job's text with `o200k_base` in segments until its time budget
// (ms from receipt) runs out, and answers the tokens of the prefix it counted.
parentPort?.on('message', (job: TokenizeJob) => {
  const { tokens, chars } = countInSegments(job.text, count, performance.now() + job.budgetMs);
  parentPort?.postMessage({ id: job.id, tokens, chars } satisfies TokenizeResult);
});
parentPort?.postMessage({ ready: true } satisfies TokenizerReady);
