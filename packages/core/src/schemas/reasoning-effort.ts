import { z } from 'zod';

/**
 * `reasoning_effort`: how much the model should think before answering. OpenAI's values `minimal`, `low`, `medium`,
 * `high` (and `none`, `xhigh` for the models that accept them). Adapters of providers without this parameter translate
 * it (see each adapter and docs/api.md, "Reasoning models").
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort
 */
export const reasoningEffortSchema = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);

/** A `reasoning_effort` value. */
export type ReasoningEffort = z.infer<typeof reasoningEffortSchema>;
