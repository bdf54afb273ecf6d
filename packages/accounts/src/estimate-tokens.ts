type Tokenizer = typeof import('gpt-tokenizer');
let tokenizer: Promise<Tokenizer> | undefined;

/**
 * Counts tokens of text with the `o200k_base` tokenizer (gpt-tokenizer), for calls whose upstream reported no usage.
 * The tokenizer (large tables) is loaded on first use only, so gateways that never need it do not pay for it.
 * Other providers' tokenizers differ a little; the count is an estimate for them.
 * @see https://github.com/niieani/gpt-tokenizer
 */
export async function countTextTokens(text: string): Promise<number> {
  if (!text) return 0;
  tokenizer ??= import('gpt-tokenizer');
  return (await tokenizer).countTokens(text);
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
