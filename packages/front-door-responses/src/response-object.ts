import type { ResponsesRequest } from './responses-request-schema.js';

/** `output_text` content part of an output message (OutputTextContent); `annotations` and `logprobs` stay empty. */
export interface OutputTextPart {
  type: 'output_text';
  text: string;
  annotations: unknown[];
  logprobs: unknown[];
}

/** `refusal` content part of an output message. */
export interface RefusalPart {
  type: 'refusal';
  refusal: string;
}

/** An assistant message in `output` (OutputMessage). */
export interface OutputMessageItem {
  type: 'message';
  id: string;
  status: 'in_progress' | 'completed' | 'incomplete';
  role: 'assistant';
  content: (OutputTextPart | RefusalPart)[];
}

/**
 * A tool call in `output` (FunctionToolCall); `arguments` is a JSON-encoded string, `namespace` set for a tool of a
 * `namespace` tool.
 */
export interface FunctionCallItem {
  type: 'function_call';
  id: string;
  call_id: string;
  namespace?: string;
  name: string;
  arguments: string;
  status: 'in_progress' | 'completed' | 'incomplete';
}

/** A call of a freeform tool in `output` (CustomToolCall): `input` is the raw text the model wrote. */
export interface CustomToolCallItem {
  type: 'custom_tool_call';
  id: string;
  call_id: string;
  namespace?: string;
  name: string;
  input: string;
  status: 'in_progress' | 'completed' | 'incomplete';
}

/**
 * A web search the provider ran (WebSearchToolCall): `{type:"web_search_call", id, status, action:{type:"search",
 * query}}`, from a canonical `web_search_calls` entry (Anthropic's web search server tool).
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses-object-output-web_search_call
 */
export interface WebSearchCallItem {
  type: 'web_search_call';
  id: string;
  status: 'in_progress' | 'searching' | 'completed' | 'failed';
  action: { type: 'search'; query: string };
}

/** One item of `output`. */
export type OutputItem = OutputMessageItem | FunctionCallItem | CustomToolCallItem | WebSearchCallItem;

/** Token usage of a response (ResponseUsage), tokens. */
export interface ResponseUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** `error` of a failed response (ResponseError): `code` is one of OpenAI's ResponseErrorCode values. */
export interface ResponseErrorField {
  code: string;
  message: string;
}

/**
 * The `response` object (Response): what `POST /v1/responses` answers, what `GET /v1/responses/{id}` returns and what
 * the stream's lifecycle events carry. Every field of OpenAI's `Response` schema is present (and the Open Responses
 * `ResponseResource` penalties), echoing the request or its default; `usage` only once finished, `user` only when sent
 * (the schema allows neither as null). `created_at` and `completed_at` are unix seconds.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export interface ResponseObject {
  id: string;
  object: 'response';
  created_at: number;
  status: 'completed' | 'failed' | 'in_progress' | 'incomplete';
  completed_at: number | null;
  error: ResponseErrorField | null;
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  instructions: string | null;
  max_output_tokens: number | null;
  max_tool_calls: number | null;
  model: string;
  output: OutputItem[];
  output_text: string;
  parallel_tool_calls: boolean;
  previous_response_id: string | null;
  reasoning: { effort: string | null; summary: string | null };
  store: boolean;
  background: boolean;
  temperature: number;
  top_p: number;
  top_logprobs: number;
  presence_penalty: number;
  frequency_penalty: number;
  text: { format: Record<string, unknown>; verbosity: string };
  tool_choice: unknown;
  tools: unknown[];
  truncation: 'auto' | 'disabled';
  service_tier: string;
  safety_identifier: string | null;
  prompt_cache_key: string | null;
  prompt_cache_retention: string | null;
  prompt: null;
  conversation: null;
  moderation: null;
  /** Absent until the response is finished (the schema has no null here). */
  usage?: ResponseUsage;
  /** Only present when the request had one (the schema has no null here). */
  user?: string;
  metadata: Record<string, string>;
}

/**
 * A response object with nothing generated yet (`status: in_progress`, empty `output`), echoing the request's
 * settings as OpenAI does (defaults: temperature 1, top_p 1, top_logprobs 0, penalties 0, tool_choice `auto`,
 * parallel_tool_calls true, text verbosity `medium`, service_tier `default`, truncation `disabled`, background false).
 */
export function newResponseObject(
  id: string,
  request: ResponsesRequest,
  createdAt: number,
  store: boolean,
): ResponseObject {
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status: 'in_progress',
    completed_at: null,
    error: null,
    incomplete_details: null,
    instructions: request.instructions ?? null,
    max_output_tokens: request.max_output_tokens ?? null,
    max_tool_calls: request.max_tool_calls ?? null,
    model: request.model,
    output: [],
    output_text: '',
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.summary ?? null },
    store,
    background: request.background ?? false,
    temperature: request.temperature ?? 1,
    top_p: request.top_p ?? 1,
    top_logprobs: request.top_logprobs ?? 0,
    presence_penalty: request.presence_penalty ?? 0,
    frequency_penalty: request.frequency_penalty ?? 0,
    text: { format: request.text?.format ?? { type: 'text' }, verbosity: request.text?.verbosity ?? 'medium' },
    tool_choice: request.tool_choice ?? 'auto',
    tools: request.tools ?? [],
    truncation: request.truncation ?? 'disabled',
    service_tier: !request.service_tier || request.service_tier === 'auto' ? 'default' : request.service_tier,
    safety_identifier: request.safety_identifier ?? null,
    prompt_cache_key: request.prompt_cache_key ?? null,
    prompt_cache_retention: request.prompt_cache_retention ?? null,
    prompt: null,
    conversation: null,
    moderation: null,
    ...(request.user ? { user: request.user } : {}),
    metadata: request.metadata ?? {},
  };
}

/** The concatenated text of every `output_text` part (the SDK's `output_text` convenience). */
export function collectOutputText(output: readonly OutputItem[]): string {
  let text = '';
  for (const item of output)
    if (item.type === 'message') for (const part of item.content) if (part.type === 'output_text') text += part.text;
  return text;
}
