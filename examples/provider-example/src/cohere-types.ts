/**
 * The parts of Cohere's v2 Chat API this adapter uses.
 * @see https://docs.cohere.com/reference/chat
 * @see https://docs.cohere.com/reference/chat-stream
 */

/** One message of a Cohere v2 chat request (text only in this example adapter). */
export interface CohereMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** `POST /v2/chat` body. */
export interface CohereChatRequest {
  model: string;
  messages: CohereMessage[];
  stream?: boolean;
  temperature?: number;
  /** Nucleus sampling, 0.01..0.99 (OpenAI's `top_p`). */
  p?: number;
  max_tokens?: number;
  stop_sequences?: string[];
  seed?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
}

/** Cohere's finish reasons. */
export type CohereFinishReason =
  | 'COMPLETE'
  | 'STOP_SEQUENCE'
  | 'MAX_TOKENS'
  | 'TOOL_CALL'
  | 'ERROR'
  | 'TIMEOUT'
  | string;
