import { z } from 'zod';

/**
 * A function tool offered to the model: `{type:"function", function:{name, description?, parameters?, strict?}}`.
 * `parameters` is a JSON Schema object.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools
 */
export const chatCompletionToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: z.boolean().nullish(),
  }),
});

/**
 * `tool_choice`: `"none" | "auto" | "required"` or a named function `{type:"function", function:{name}}`.
 * @see https://platform.openai.com/docs/api-reference/chat/create#chat-create-tool_choice
 */
export const chatCompletionToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
  z.looseObject({ type: z.string() }),
]);

/**
 * A tool call made by the model (in a response or in an assistant message of the history).
 * `function.arguments` is a JSON-encoded string, as OpenAI sends it.
 */
export const chatCompletionMessageToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

/** A function tool offered to the model. */
export type ChatCompletionTool = z.infer<typeof chatCompletionToolSchema>;
/** The `tool_choice` request field. */
export type ChatCompletionToolChoice = z.infer<typeof chatCompletionToolChoiceSchema>;
/** A tool call of the model, arguments as a JSON string. */
export type ChatCompletionMessageToolCall = z.infer<typeof chatCompletionMessageToolCallSchema>;
