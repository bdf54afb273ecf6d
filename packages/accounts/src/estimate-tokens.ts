import { setImmediate as yieldToEventLoop } from 'node:timers/promises';

type Tokenizer = typeof import('gpt-tokenizer');
let tokenizer: Promise<Tokenizer> | undefined;

/** Characters tokenized in one go before yielding to the event loop (about 1 ms of work). */
const SLICE_CHARS = 64 * 1024;
/**
 * Most characters {@link countTextTokens} tokenizes, 1,048,576 (1 MiB of text, about 20 ms of CPU in 16 slices). The
 * rest of a longer text is estimated at the ratio of tokens to characters measured on the tokenized part.
 */
export const MAX_TOKENIZED_CHARS = 1024 * 1024;
/** Special tokens such as `<|endoftext|>` are counted as the plain text they are (gpt-tokenizer throws by default). */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Counts tokens of text with the `o200k_base` tokenizer (gpt-tokenizer), for calls whose upstream reported no usage.
 * Special-token strings in the text (`<|endoftext|>`...) are counted as plain text, never rejected. The text is
 * tokenized in 64 KiB slices with a yield to the event loop between them, and at most {@link MAX_TOKENIZED_CHARS}
 * characters are tokenized: the remainder is extrapolated, so megabytes of text never block the gateway.
 * The tokenizer (large tables) is loaded on first use only, so gateways that never need it do not pay for it.
 * Other providers' tokenizers differ a little; the count is an estimate for them. Never throws for any string.
 * @see https://github.com/niieani/gpt-tokenizer
 */
export async function countTextTokens(text: string): Promise<number> {
  if (!text) return 0;
  tokenizer ??= import('gpt-tokenizer');
  const { countTokens } = await tokenizer;
  const end = Math.min(text.length, MAX_TOKENIZED_CHARS);
  let tokens = 0;
  for (let start = 0; start < end; start += SLICE_CHARS) {
    if (start > 0) await yieldToEventLoop();
    tokens += countTokens(text.slice(start, Math.min(end, start + SLICE_CHARS)), PLAIN_TEXT);
  }
  return end === text.length ? tokens : Math.ceil((tokens * text.length) / end);
}

/** Cheap pre-call estimate of prompt tokens, without tokenizing: about 4 characters per token. */
export function estimatePromptTokens(body: unknown): number {
  const messages = (body as { messages?: { content?: unknown }[] } | null)?.messages;
  const input = (body as { input?: unknown } | null)?.input;
  let chars = 0;
  const add = (value: unknown) => {
    if (typeof value === 'string') chars += value.length;
    else if (Array.isArray(value)) for (const v of value) add(typeof v === 'object' && v !== null ? ((v as { text?: unknown }).text ?? '') : v);
  };
  if (Array.isArray(messages)) for (const m of messages) add(m?.content);
  add(input);
  return Math.ceil(chars / 4);
}

/** The prompt as text (message contents, or `input`), for the tokenizer. */
export function promptText(body: unknown): string {
  const messages = (body as { messages?: { content?: unknown }[] } | null)?.messages;
  if (!Array.isArray(messages)) return typeof (body as { input?: unknown } | null)?.input === 'string' ? String((body as { input: string }).input) : '';
  return messages.map((m) => (typeof m?.content === 'string' ? m.content : JSON.stringify(m?.content ?? ''))).join('\n');
}
