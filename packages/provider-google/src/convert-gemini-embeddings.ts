import {
  type EmbeddingRequest,
  type EmbeddingResponse,
  type ParameterRules,
  invalidRequestError,
} from '@switchyard/core';

/** `POST models/{model}:batchEmbedContents` body. */
export interface GeminiBatchEmbedRequest {
  requests: {
    model: string;
    content: { parts: { text: string }[] };
    outputDimensionality?: number;
    taskType?: string;
  }[];
}

/**
 * What the Gemini adapter does with each OpenAI embeddings field: `model`, `input`, `dimensions`
 * (-> `outputDimensionality`), `encoding_format` (the gateway encodes the float vectors) and the extra field
 * `task_type` (-> `taskType`, e.g. `RETRIEVAL_QUERY`) are translated; anything else (`user`, unknown fields) is dropped
 * with an `unsupported_parameter` warning (core's `checkRequestParameters`).
 * @see https://ai.google.dev/api/embeddings#EmbedContentRequest
 */
export const GEMINI_EMBEDDING_PARAMETERS: ParameterRules = {
  upstream: 'Gemini embedding models',
  handled: new Set(['model', 'input', 'dimensions', 'encoding_format', 'task_type']),
};

/**
 * OpenAI embeddings request -> one Gemini `batchEmbedContents` call for the whole batch (order kept),
 * `dimensions` -> `outputDimensionality`, `task_type` (a string) -> `taskType`. Token-array inputs throw 400 naming
 * `input` (Gemini takes text only).
 * @see https://ai.google.dev/api/embeddings#method:-models.batchembedcontents
 */
export function convertToGeminiBatchEmbed(request: EmbeddingRequest, model: string): GeminiBatchEmbedRequest {
  const inputs = typeof request.input === 'string' ? [request.input] : (request.input as unknown[]);
  const taskType = (request as { task_type?: unknown }).task_type;
  return {
    requests: inputs.map((text, i) => {
      if (typeof text !== 'string')
        throw invalidRequestError('Gemini embeddings take text input, not token arrays.', `input[${i}]`);
      return {
        model: `models/${model}`,
        content: { parts: [{ text }] },
        ...(request.dimensions ? { outputDimensionality: request.dimensions } : {}),
        ...(typeof taskType === 'string' ? { taskType } : {}),
      };
    }),
  };
}

/**
 * Gemini `{embeddings:[{values}]}` -> OpenAI embeddings list (float vectors; the gateway encodes base64 when asked).
 * Gemini reports no token usage for embeddings, so usage is 0 tokens.
 */
export function convertGeminiEmbeddings(
  response: { embeddings?: { values: number[] }[] },
  model: string,
): EmbeddingResponse {
  return {
    object: 'list',
    model,
    data: (response.embeddings ?? []).map((e, index) => ({ object: 'embedding', index, embedding: e.values })),
    usage: { prompt_tokens: 0, total_tokens: 0 },
  };
}
