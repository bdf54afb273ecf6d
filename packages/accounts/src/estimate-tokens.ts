import { countTokens } from 'gpt-tokenizer';

/**
 * Counts tokens of text with the `o200k_base` tokenizer (gpt-tokenizer), for calls whose upstream reported no usage
 * and for pre-call estimates of the tokens-per-minute limit. Other providers' tokenizers differ a little; the count is
 * an estimate for them.
 * @see https://github.com/niieani/gpt-tokenizer
 */
export function countTextTokens(text: string): number {
  return text ? countTokens(text) : 0;
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
