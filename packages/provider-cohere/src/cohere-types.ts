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
