import { z } from 'zod';

/**
 * One entry of `reasoning_details`: the model's reasoning as the upstream gave it, kept so that a client can send it
 * back unchanged on the assistant message of the next turn (Anthropic needs its thinking blocks with their `signature`,
 * Gemini its thought signatures, for multi-turn tool use with thinking). Entries are opaque to clients: copy them back
 * as received. The shape follows the convention of OpenRouter's `reasoning_details`:
 * - `{type:"reasoning.text", text, signature?, format, index?}`: readable reasoning and its signature
 *   (Anthropic `thinking` block);
 * - `{type:"reasoning.encrypted", data, format, id?, index?}`: reasoning the client cannot read (Anthropic
 *   `redacted_thinking.data`, a Gemini `thoughtSignature`; `id` names the tool call the signature belongs to);
 * - `{type:"reasoning.summary", summary, format, index?}`: a summary of the reasoning.
 * `format` names the upstream dialect (`anthropic-claude-v1`, `google-gemini-v1`); an adapter only reads entries of its
 * own format and ignores the others (a conversation that switched providers).
 * @see https://openrouter.ai/docs/use-cases/reasoning-tokens#reasoning-details
 */
export const reasoningDetailSchema = z.looseObject({
  type: z.string(),
  format: z.string().optional(),
  index: z.number().int().optional(),
  id: z.string().nullish(),
  text: z.string().optional(),
  signature: z.string().nullish(),
  data: z.string().optional(),
  summary: z.string().optional(),
});

/** One `reasoning_details` entry. */
export type ReasoningDetail = z.infer<typeof reasoningDetailSchema>;

/** `format` of the entries Anthropic's thinking blocks become. */
export const ANTHROPIC_REASONING_FORMAT = 'anthropic-claude-v1';
/** `format` of the entries Gemini's thought signatures become. */
export const GOOGLE_REASONING_FORMAT = 'google-gemini-v1';
