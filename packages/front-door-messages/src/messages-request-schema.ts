import { z } from 'zod';

const cacheControl = z.looseObject({ type: z.string() }).nullish();
/** `{type:"text", text}` block. */
const textBlock = z.looseObject({ type: z.literal('text'), text: z.string(), cache_control: cacheControl });
/** `{type:"image", source:{type:"base64", media_type, data} | {type:"url", url}}` block. */
const imageBlock = z.looseObject({
  type: z.literal('image'),
  source: z.union([
    z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string() }),
  ]),
  cache_control: cacheControl,
});
/** `{type:"tool_use", id, name, input}` block (assistant turns). */
const toolUseBlock = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});
/** `{type:"tool_result", tool_use_id, content?, is_error?}` block (user turns); content is a string or text/image blocks. */
const toolResultBlock = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]).optional(),
  is_error: z.boolean().optional(),
});
/** `{type:"thinking", thinking, signature}` / `{type:"redacted_thinking", data}` blocks of earlier assistant turns. */
const thinkingBlock = z.looseObject({ type: z.enum(['thinking', 'redacted_thinking']) });
/** `{type:"document", source}` block (PDFs). */
const documentBlock = z.looseObject({ type: z.literal('document'), source: z.looseObject({ type: z.string() }) });
/**
 * Anthropic's other documented block types (server tools and their results, MCP, search results, container uploads,
 * tool references), kept as they are for Anthropic models; translation to other providers drops them with a warning.
 */
export const ANTHROPIC_ONLY_BLOCK_TYPES = [
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
  'search_result',
  'tool_reference',
] as const;
const anthropicOnlyBlock = z.looseObject({ type: z.enum(ANTHROPIC_ONLY_BLOCK_TYPES) });

/** A content block of a message: an unknown `type` is a 400 naming it. */
export const messageContentBlockSchema = z.discriminatedUnion('type', [
  textBlock,
  imageBlock,
  toolUseBlock,
  toolResultBlock,
  thinkingBlock,
  documentBlock,
  anthropicOnlyBlock,
]);

/**
 * One message: `role` user, assistant or system (Claude Code 2.1 puts `system` entries inside `messages[]`), `content` a
 * string or blocks.
 * @see https://code.claude.com/docs/en/llm-gateway-protocol
 */
export const messageParamSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(messageContentBlockSchema)]),
});

/** Most entries of `messages` a request may hold (as chat completions: 10,000); more is a 400 before validation. */
export const MAX_MESSAGES = 10_000;

/**
 * `POST /v1/messages` body (Anthropic's Messages API): `model`, `max_tokens` (tokens, >= 1, required), `messages`,
 * `system` (a string or text blocks), `stop_sequences`, `temperature` (0..1), `top_p`, `top_k`, `tools`
 * (`{name, description?, input_schema}`), `tool_choice` (`auto` | `any` | `tool` | `none`), `thinking`, `metadata`
 * (`user_id`), `output_config` (`effort`, `format`), `stream`. `messages` holds 1 to {@link MAX_MESSAGES} entries. Unknown
 * fields are kept (and passed through to Anthropic upstreams).
 * @see https://docs.anthropic.com/en/api/messages
 */
export const messagesRequestSchema = z.looseObject({
  model: z.string().min(1),
  max_tokens: z.number().int().min(1),
  messages: z.array(messageParamSchema).min(1).max(MAX_MESSAGES),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  tools: z
    .array(
      z.looseObject({
        name: z.string().min(1),
        description: z.string().optional(),
        input_schema: z.record(z.string(), z.unknown()).optional(),
        type: z.string().optional(),
      }),
    )
    .optional(),
  tool_choice: z
    .looseObject({
      type: z.enum(['auto', 'any', 'tool', 'none']),
      name: z.string().optional(),
      disable_parallel_tool_use: z.boolean().optional(),
    })
    .optional(),
  thinking: z
    .looseObject({ type: z.enum(['enabled', 'disabled', 'adaptive']), budget_tokens: z.number().int().optional() })
    .optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  output_config: z
    .looseObject({ effort: z.string().optional(), format: z.looseObject({ type: z.string() }).nullish() })
    .optional(),
  stream: z.boolean().optional(),
});

/** A parsed `POST /v1/messages` body. */
export type MessagesRequest = z.infer<typeof messagesRequestSchema>;
/** A content block of a request message. */
export type MessageContentBlock = z.infer<typeof messageContentBlockSchema>;

/** `POST /v1/messages/count_tokens` body: the request without `max_tokens`. */
export const countTokensRequestSchema = messagesRequestSchema.omit({ max_tokens: true });
/** A parsed `POST /v1/messages/count_tokens` body. */
export type CountTokensRequest = z.infer<typeof countTokensRequestSchema>;
