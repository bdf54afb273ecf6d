import { z } from 'zod';

/** `input_text` content part: `{type:"input_text", text}`. */
const inputTextPart = z.looseObject({ type: z.literal('input_text'), text: z.string() });
/** `input_image` content part: `{type:"input_image", image_url?, file_id?, detail?}` (URL or `data:` URL). */
const inputImagePart = z.looseObject({
  type: z.literal('input_image'),
  image_url: z.string().min(1).nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['auto', 'low', 'high']).nullish(),
});
/** `input_file` content part: `{type:"input_file", file_data?, file_id?, filename?}`. */
const inputFilePart = z.looseObject({
  type: z.literal('input_file'),
  file_data: z.string().nullish(),
  file_id: z.string().nullish(),
  filename: z.string().nullish(),
});
/** `output_text` content part of an assistant message in the history. */
const outputTextPart = z.looseObject({ type: z.literal('output_text'), text: z.string() });
/** `refusal` content part of an assistant message in the history. */
const refusalPart = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

/** A content part of an input message. */
export const responsesContentPartSchema = z.discriminatedUnion('type', [
  inputTextPart,
  inputImagePart,
  inputFilePart,
  outputTextPart,
  refusalPart,
]);

/**
 * A message input item (EasyInputMessage / InputMessage / OutputMessage): `type` is `message` or absent; `content` a
 * string or content parts.
 */
export const responsesMessageItemSchema = z.looseObject({
  type: z.literal('message').optional(),
  id: z.string().optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(responsesContentPartSchema)]),
});

/** A tool call the model made (FunctionToolCall): `arguments` is a JSON-encoded string. */
export const responsesFunctionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  id: z.string().optional(),
  call_id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().nullish(),
  arguments: z.string(),
});

/** The result of a tool call (FunctionCallOutputItemParam): `output` is a string or content parts. */
export const responsesFunctionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  id: z.string().optional(),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(responsesContentPartSchema)]),
});

/** A freeform tool call the model made (CustomToolCall): `input` is the raw text. */
export const responsesCustomToolCallItemSchema = z.looseObject({
  type: z.literal('custom_tool_call'),
  id: z.string().optional(),
  call_id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().nullish(),
  input: z.string(),
});

/** The result of a freeform tool call (CustomToolCallOutput): `output` is a string or content parts. */
export const responsesCustomToolCallOutputItemSchema = z.looseObject({
  type: z.literal('custom_tool_call_output'),
  id: z.string().optional(),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(responsesContentPartSchema)]),
});

/**
 * Tools declared in the conversation instead of in `tools` (Codex's newer models send their tools, in namespaces, this
 * way): `{type:"additional_tools", id?, role?, tools: Tool[]}`. Translation declares them as it does `tools`.
 */
export const responsesAdditionalToolsItemSchema = z.looseObject({
  type: z.literal('additional_tools'),
  id: z.string().optional(),
  tools: z.array(z.looseObject({ type: z.string() })),
});

/**
 * A call of one of OpenAI's hosted tools from an earlier response (`web_search_call`, `file_search_call`,
 * `code_interpreter_call`, `image_generation_call`, `tool_search_call`/`_output`, `computer_call`/`_output`, ...):
 * kept in the store, dropped (with a warning) when translating, as no other provider ran it.
 */
export const HOSTED_TOOL_ITEM_TYPES: ReadonlySet<string> = new Set([
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'tool_search_call',
  'tool_search_output',
  'computer_call',
  'computer_call_output',
  'local_shell_call',
  'local_shell_call_output',
  'mcp_call',
  'mcp_list_tools',
]);
const hostedToolItemSchema = z.looseObject({ type: z.string().refine((type) => HOSTED_TOOL_ITEM_TYPES.has(type)) });

/**
 * A reasoning item from an earlier response (`encrypted_content` when the client asked for it with `include`): passed
 * back by value to OpenAI on the pass-through; no translated provider can read it, so translation drops it.
 */
export const responsesReasoningItemSchema = z.looseObject({ type: z.literal('reasoning') });

/** One input item the gateway understands. */
export const responsesInputItemSchema = z.union([
  responsesMessageItemSchema,
  responsesFunctionCallItemSchema,
  responsesFunctionCallOutputItemSchema,
  responsesCustomToolCallItemSchema,
  responsesCustomToolCallOutputItemSchema,
  responsesReasoningItemSchema,
  responsesAdditionalToolsItemSchema,
  hostedToolItemSchema,
]);

/** A function tool (FunctionTool): `{type:"function", name, description?, parameters?, strict?}`. */
export const responsesFunctionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullish(),
  parameters: z.record(z.string(), z.unknown()).nullish(),
  strict: z.boolean().nullish(),
});

/** `text.format`: `text`, `json_object` or `json_schema` (`{type, name, schema, strict?, description?}`). */
export const responsesTextFormatSchema = z.union([
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    schema: z.record(z.string(), z.unknown()),
    strict: z.boolean().nullish(),
    description: z.string().nullish(),
  }),
]);

/**
 * `POST /v1/responses` body (CreateResponse), the fields the gateway translates: `model`, `input` (a string or
 * items), `instructions`, `tools` (function tools), `tool_choice`, `parallel_tool_calls`, `text.format`,
 * `temperature` (0..2), `top_p` (0..1), `max_output_tokens` (tokens, >= 16 at OpenAI; >= 1 here), `reasoning.effort`,
 * `metadata` (at most 16 string pairs), `user`, `stream`, `store` (default true), `previous_response_id`, `include`,
 * `prompt_cache_key`, `safety_identifier` (at most 64 characters), `service_tier`, penalties (-2..2), `top_logprobs`
 * (0..20), `max_tool_calls`, `background`, `truncation`, `text.verbosity`, `reasoning.summary`.
 * Unknown fields are kept (and ignored). Tools are checked when translated (`convertResponsesTools`).
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.looseObject({ type: z.string().optional() }))]),
  instructions: z.string().nullish(),
  tools: z.array(z.looseObject({ type: z.string() })).nullish(),
  tool_choice: z
    .union([z.enum(['none', 'auto', 'required']), z.looseObject({ type: z.string(), name: z.string().optional() })])
    .nullish(),
  parallel_tool_calls: z.boolean().nullish(),
  text: z
    .looseObject({
      format: responsesTextFormatSchema.optional(),
      verbosity: z.enum(['low', 'medium', 'high']).nullish(),
    })
    .nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  max_output_tokens: z.number().int().min(1).nullish(),
  reasoning: z
    .looseObject({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullish(),
      summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
    })
    .nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  user: z.string().nullish(),
  stream: z.boolean().nullish(),
  store: z.boolean().nullish(),
  previous_response_id: z.string().nullish(),
  include: z.array(z.string()).nullish(),
  prompt_cache_key: z.string().nullish(),
  prompt_cache_retention: z.enum(['in_memory', '24h']).nullish(),
  safety_identifier: z.string().max(64).nullish(),
  service_tier: z.string().nullish(),
  presence_penalty: z.number().min(-2).max(2).nullish(),
  frequency_penalty: z.number().min(-2).max(2).nullish(),
  top_logprobs: z.number().int().min(0).max(20).nullish(),
  max_tool_calls: z.number().int().min(1).nullish(),
  background: z.boolean().nullish(),
  truncation: z.enum(['auto', 'disabled']).nullish(),
});

/** A parsed `POST /v1/responses` body. */
export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;
/** An input item the gateway understands. */
export type ResponsesInputItem = z.infer<typeof responsesInputItemSchema>;
/** A content part of an input message. */
export type ResponsesContentPart = z.infer<typeof responsesContentPartSchema>;
/** A function tool. */
export type ResponsesFunctionTool = z.infer<typeof responsesFunctionToolSchema>;
