/**
 * Wire types of Amazon Bedrock's Converse API and the InvokeModel bodies this adapter sends, as far as it reads or
 * writes them. Field names are Bedrock's own.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 */

/** A content block of a Converse message. Images carry base64 `bytes` in the JSON protocol. */
export type ConverseContentBlock =
  | { text: string }
  | { image: { format: 'png' | 'jpeg' | 'gif' | 'webp'; source: { bytes: string } } }
  | { toolUse: { toolUseId: string; name: string; input: unknown } }
  | { toolResult: { toolUseId: string; content: { text: string }[]; status?: 'success' | 'error' } }
  | { reasoningContent: { reasoningText?: { text: string; signature?: string }; redactedContent?: string } };

/** One turn: Converse alternates `user` and `assistant`. */
export interface ConverseMessage {
  role: 'user' | 'assistant';
  content: ConverseContentBlock[];
}

/** `toolConfig.toolChoice`: one of `auto`, `any` (OpenAI `required`) or a named `tool`. */
export type ConverseToolChoice =
  | { auto: Record<string, never> }
  | { any: Record<string, never> }
  | { tool: { name: string } };

/** The body of `POST /model/{modelId}/converse` and `/converse-stream`. */
export interface ConverseRequest {
  messages: ConverseMessage[];
  system?: { text: string }[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: {
    tools: { toolSpec: { name: string; description?: string; inputSchema: { json: unknown } } }[];
    toolChoice?: ConverseToolChoice;
  };
  /** Model-specific fields, e.g. Claude's `thinking`. */
  additionalModelRequestFields?: Record<string, unknown>;
}
