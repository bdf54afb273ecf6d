/** A Cohere v2 tool call (same shape as OpenAI's). */
export interface CohereToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A Cohere v2 chat message. @see https://docs.cohere.com/reference/chat */
export type CohereMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | unknown[] }
  | { role: 'assistant'; content?: string; tool_calls?: CohereToolCall[]; tool_plan?: string }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Cohere billing and token counts (tokens). */
export interface CohereUsage {
  billed_units?: { input_tokens?: number; output_tokens?: number };
  tokens?: { input_tokens?: number; output_tokens?: number };
  cached_tokens?: number;
}

/** The non-streamed answer of `POST /v2/chat`. */
export interface CohereChatResponse {
  id: string;
  finish_reason: string;
  message: { role: 'assistant'; content?: { type: string; text?: string }[]; tool_plan?: string; tool_calls?: CohereToolCall[] };
  usage?: CohereUsage;
}

/** One event of a `POST /v2/chat` stream (`stream: true`), the fields read here. @see https://docs.cohere.com/reference/chat-stream */
export interface CohereStreamEvent {
  type: string;
  id?: string;
  index?: number;
  delta?: {
    message?: {
      content?: { text?: string };
      tool_plan?: string;
      tool_calls?: { id?: string; type?: string; function?: { name?: string; arguments?: string } };
    };
    finish_reason?: string;
    usage?: CohereUsage;
  };
}

/** The answer of `POST /v2/embed`. @see https://docs.cohere.com/reference/embed */
export interface CohereEmbedResponse {
  id?: string;
  embeddings: { float?: number[][] };
  meta?: { billed_units?: { input_tokens?: number } };
}
