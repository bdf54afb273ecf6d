import { availableParallelism } from 'node:os';
import { TokenizerPool } from './tokenizer-pool.js';

/**
 * Most characters {@link countTextTokens} tokenizes, 1,048,576 (1 Mi characters). The rest of a longer text is
 * estimated at the ratio of tokens to characters measured on the tokenized part.
 */
export const MAX_TOKENIZED_CHARS = 1024 * 1024;
/**
 * Time a worker may spend counting one text (ms): 1,000. Past it, the text's tokens are extrapolated from the part
 * counted (1 Mi characters of English take about 60 ms; of random CJK, about 7 s: about 15 % is counted).
 */
export const TOKENIZE_BUDGET_MS = 1_000;
/**
 * Characters waiting for a tokenizer worker at most, 8 Mi (with one worker, about 8 s of waiting at worst); a text that
 * would pass it gets the byte estimate at once.
 */
export const MAX_QUEUED_CHARS = 8 * 1024 * 1024;

let pool: TokenizerPool | undefined;

/** The process's tokenizer pool, made on first use: 1 worker on a 2-core machine, at most 2. */
function tokenizerPool(): TokenizerPool {
  pool ??= new TokenizerPool({
    workerUrl: workerUrl(),
    size: Math.max(1, Math.min(2, availableParallelism() - 1)),
    budgetMs: TOKENIZE_BUDGET_MS,
    maxQueuedChars: MAX_QUEUED_CHARS,
  });
  return pool;
}

/**
 * Starts the tokenizer workers of {@link countTextTokens} now, in the background (each loads the tokenizer in 2-3 s of
 * its own thread, off the event loop), so that the first count (a usage-less or cut stream's ledger row,
 * `count_tokens`) does not wait for a cold worker. Returns at once; never blocks startup or readiness; idempotent.
 * Called when accounts open. The promise resolves (never rejects) once the workers are ready (or failed to start).
 */
export function warmTokenizer(): Promise<void> {
  return tokenizerPool().warm();
}

/**
 * Whether a tokenizer worker is ready to count, waiting for those still loading; false at once when nothing started
 * the pool (neither {@link warmTokenizer} nor a count). Starts nothing: for tests and diagnostics.
 */
export function isTokenizerWarm(): Promise<boolean> {
  return pool ? pool.isWarm() : Promise.resolve(false);
}

/** The worker script: next to this module once built (`dist/`); from the sources (unit tests), the built one. */
function workerUrl(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../dist/tokenize-worker.js', import.meta.url)
    : new URL('./tokenize-worker.js', import.meta.url);
}

/**
 * Counts tokens of text with the `o200k_base` tokenizer (gpt-tokenizer), for `/v1/messages/count_tokens` and for calls
 * whose upstream reported no usage. The tokenizer never runs on the event loop's thread: texts are counted by a pool of
 * worker threads (1 on a 2-core machine, at most 2; started on first use) in segments of at most 4,096 characters cut
 * where the tokenizer's pre-tokenizer cuts anyway, so ordinary text (prose in any script, code, JSON) counts exactly as
 * a whole would; a run of more than 256 characters with no such cut (CJK without punctuation, base64) is counted 256
 * characters at a time (about one token more per cut, and linear time where the whole run took quadratic time).
 * Bounds, each documented as an estimate: at most {@link MAX_TOKENIZED_CHARS} characters are counted and at most
 * {@link TOKENIZE_BUDGET_MS} spent in a worker, the rest extrapolated at the counted part's tokens per character; when
 * nothing can be counted (more than {@link MAX_QUEUED_CHARS} characters already queued, or a worker failed) the answer is the
 * text's UTF-8 bytes / 4, rounded up. Special-token strings (`<|endoftext|>`...) count as plain text. Other providers'
 * tokenizers differ a little; the count is an estimate for them. Never rejects.
 * @returns tokens (an integer >= 0).
 * @see https://github.com/niieani/gpt-tokenizer
 */
export async function countTextTokens(text: string): Promise<number> {
  if (!text) return 0;
  const counted = await tokenizerPool().count(
    text.length > MAX_TOKENIZED_CHARS ? text.slice(0, MAX_TOKENIZED_CHARS) : text,
  );
  if (!counted || counted.chars === 0) return Math.ceil(Buffer.byteLength(text, 'utf8') / 4);
  return counted.chars === text.length ? counted.tokens : Math.ceil((counted.tokens * text.length) / counted.chars);
}

/** Cheap pre-call estimate of prompt tokens, without tokenizing: about 4 characters per token. */
export function estimatePromptTokens(body: unknown): number {
  const messages = (body as { messages?: { content?: unknown }[] } | null)?.messages;
  const input = (body as { input?: unknown } | null)?.input;
  let chars = 0;
  if (Array.isArray(messages)) for (const m of messages) chars += charsOf(m?.content);
  chars += charsOf(input);
  const prompt = legacyPrompt(body);
  return Math.ceil(chars / 4) + (typeof prompt === 'number' ? prompt : Math.ceil(prompt.length / 4));
}

/**
 * The characters of a message's `content` or an `input`: a string's length, or the sum over a list's strings and its
 * parts' `text`; 0 for anything else. A module function, no closure per call (see {@link estimatePromptTokens}).
 */
function charsOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (!Array.isArray(value)) return 0;
  let chars = 0;
  for (const v of value)
    chars += charsOf(typeof v === 'object' && v !== null ? ((v as { text?: unknown }).text ?? '') : v);
  return chars;
}

/**
 * The `prompt` of a legacy completion (`POST /v1/completions`): its text (several prompts joined by newlines), or its
 * token count (tokens) when it is given as token ids; '' for a body without one.
 */
function legacyPrompt(body: unknown): string | number {
  const prompt = (body as { prompt?: unknown } | null)?.prompt;
  if (typeof prompt === 'string') return prompt;
  if (!Array.isArray(prompt)) return '';
  if (prompt.every((p) => typeof p === 'string')) return prompt.join('\n');
  return prompt.reduce<number>((sum, p) => sum + (Array.isArray(p) ? p.length : 1), 0);
}

/** The prompt as text (message contents, `input`, or a legacy completion's `prompt`), for the tokenizer. */
export function promptText(body: unknown): string {
  const prompt = legacyPrompt(body);
  if (typeof prompt === 'string' && prompt !== '') return prompt;
  const messages = (body as { messages?: { content?: unknown }[] } | null)?.messages;
  if (!Array.isArray(messages))
    return typeof (body as { input?: unknown } | null)?.input === 'string'
      ? String((body as { input: string }).input)
      : '';
  return messages
    .map((m) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? '')))
    .join('\n');
}
