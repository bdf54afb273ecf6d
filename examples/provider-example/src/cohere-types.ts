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

/** Token counts: `tokens` are what the model processed, `billed_units` what Cohere charges. */
export interface CohereUsage {
  billed_units?: { input_tokens?: number; output_tokens?: number };
  tokens?: { input_tokens?: number; output_tokens?: number };
  cached_tokens?: number;
}

/** Cohere's finish reasons. */
export type CohereFinishReason = 'COMPLETE' | 'STOP_SEQUENCE' | 'MAX_TOKENS' | 'TOOL_CALL' | 'ERROR' | 'TIMEOUT' | string;

/** `POST /v2/chat` answer. */
export interface CohereChatResponse {
  id: string;
  message: { role: 'assistant'; content?: { type: string; text?: string }[] };
  finish_reason: CohereFinishReason;
  usage?: CohereUsage;
}

/** One event of a `stream: true` answer (`event: <type>` + `data: <json>`). */
export type CohereStreamEvent =
  | { type: 'message-start'; id?: string }
  | { type: 'content-start' | 'content-end'; index: number }
  | { type: 'content-delta'; index: number; delta: { message: { content: { text: string } } } }
  | { type: 'message-end'; delta: { finish_reason: CohereFinishReason; usage?: CohereUsage } }
  | { type: string; [key: string]: unknown };
