import type { z } from 'zod';
import type {
  geminiCandidateSchema,
  geminiGenerateContentResponseSchema,
  geminiPartSchema,
  geminiUsageMetadataSchema,
} from './gemini-api.js';

/**
 * The parts of the Gemini API (generativelanguage.googleapis.com, v1beta) this adapter uses.
 * @see https://ai.google.dev/api/generate-content
 * @see https://ai.google.dev/api/embeddings
 */

/** One part of a content. */
export interface GeminiPart {
  text?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
  functionCall?: { name: string; args?: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string };
  /** Gemini 3: an opaque signature that must be sent back with the function call part on the next turn. */
  thoughtSignature?: string;
  /** True for thought-summary parts (not part of the answer). */
  thought?: boolean;
}

/** A turn: role `user` or `model`. */
export interface GeminiContent {
  role?: 'user' | 'model';
  parts: GeminiPart[];
}

/** `generationConfig`. */
export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  candidateCount?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
  /** Return the chosen tokens' log probabilities (OpenAI `logprobs`). */
  responseLogprobs?: boolean;
  /** How many top alternatives per token (OpenAI `top_logprobs`), 0..20. */
  logprobs?: number;
  thinkingConfig?: GeminiThinkingConfig;
}

/** `POST models/{model}:generateContent` body. */
export interface GeminiGenerateContentRequest {
  contents: GeminiContent[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig?: GeminiGenerationConfig;
  /** Function declarations, and `{googleSearch: {}}` for Grounding with Google Search. */
  tools?: (
    | { functionDeclarations: { name: string; description?: string; parameters?: Record<string, unknown> }[] }
    | { googleSearch: Record<string, never> }
  )[];
  toolConfig?: { functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] } };
}

/** Token counts; `usageMetadata` is cumulative within a stream (the schema: `geminiUsageMetadataSchema`). */
export type GeminiUsageMetadata = z.infer<typeof geminiUsageMetadataSchema>;

/** `logprobsResult` of a candidate. */
export type GeminiLogprobsResult = NonNullable<GeminiCandidate['logprobsResult']>;

/** One part of an answer's candidate, as read (the schema: `geminiPartSchema`). */
export type GeminiResponsePart = z.infer<typeof geminiPartSchema>;

/**
 * `thinkingConfig`: `thinkingBudget` (tokens; Gemini 2.5: 0 turns thinking off where the model allows, -1 dynamic),
 * `thinkingLevel` (Gemini 3: `minimal`, `low`, `medium`, `high`), `includeThoughts` (thought summaries in the answer).
 * @see https://ai.google.dev/gemini-api/docs/thinking
 */
export interface GeminiThinkingConfig {
  thinkingBudget?: number;
  thinkingLevel?: string;
  includeThoughts?: boolean;
  [key: string]: unknown;
}

/** One candidate answer (the schema: `geminiCandidateSchema`). */
export type GeminiCandidate = z.infer<typeof geminiCandidateSchema>;

/** `generateContent` answer, and each event of `streamGenerateContent?alt=sse` (the schema: `geminiGenerateContentResponseSchema`). */
export type GeminiGenerateContentResponse = z.infer<typeof geminiGenerateContentResponseSchema>;
