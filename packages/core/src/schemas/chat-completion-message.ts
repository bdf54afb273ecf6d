import { z } from 'zod';
import { contentPartSchema, textContentPartSchema } from './chat-completion-content-part.js';
import { chatCompletionMessageToolCallSchema } from './chat-completion-tool.js';
import { reasoningDetailSchema } from './reasoning-detail.js';

const textContent = z.union([z.string(), z.array(textContentPartSchema)]);

/**
 * One message of the conversation history a client sends (ChatCompletionRequestMessage), discriminated by `role`:
 * `system` | `developer` | `user` | `assistant` | `tool` | `function` (legacy). Unknown fields pass through.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-messages
 */
export const chatCompletionMessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.literal('system'), content: textContent, name: z.string().optional() }),
  z.looseObject({ role: z.literal('developer'), content: textContent, name: z.string().optional() }),
  z.looseObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(contentPartSchema)]),
    name: z.string().optional(),
  }),
  z.looseObject({
    role: z.literal('assistant'),
    content: z.union([z.string(), z.array(contentPartSchema)]).nullish(),
    name: z.string().optional(),
    refusal: z.string().nullish(),
    tool_calls: z.array(chatCompletionMessageToolCallSchema).optional(),
    /** The reasoning text the model showed (DeepSeek's convention); informative, adapters do not send it upstream. */
    reasoning_content: z.string().nullish(),
    /** The reasoning entries of the answer, copied back as received so that thinking survives tool use. */
    reasoning_details: z.array(reasoningDetailSchema).nullish(),
  }),
  z.looseObject({ role: z.literal('tool'), content: textContent, tool_call_id: z.string() }),
  z.looseObject({ role: z.literal('function'), content: z.string().nullable(), name: z.string() }),
]);

/** A message of the conversation history. */
export type ChatCompletionMessage = z.infer<typeof chatCompletionMessageSchema>;
