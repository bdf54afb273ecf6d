import {
  type EmbeddingRequest,
  type EmbeddingResponse,
  type ParameterRules,
  invalidRequestError,
} from '@switchyard/core';
import type { VertexEmbeddingResponse } from './vertex-api.js';

/** The `:predict` body of a Vertex text-embedding model. */
export interface VertexEmbeddingRequest {
  instances: { content: string; task_type?: string }[];
  parameters?: { outputDimensionality?: number };
}

/**
 * What the Vertex adapter does with each OpenAI embeddings field: `model`, `input`, `dimensions`
 * (-> `outputDimensionality`), `encoding_format` (the gateway encodes the float vectors) and the extra field
 * `task_type` are translated; anything else (`user`, unknown fields) is dropped with an `unsupported_parameter`
 * warning (core's `checkRequestParameters`).
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api
 */
export const VERTEX_EMBEDDING_PARAMETERS: ParameterRules = {
  upstream: 'Vertex AI embedding models',
  handled: new Set(['model', 'input', 'dimensions', 'encoding_format', 'task_type']),
};

/**
 * OpenAI embeddings request -> Vertex `:predict` body for text-embedding models (`text-embedding-005`,
 * `text-multilingual-embedding-002`, `gemini-embedding-001`): one instance per input `{content}` (with `task_type`
 * when the request carries the extra field `task_type`, e.g. `RETRIEVAL_QUERY`), `dimensions` ->
 * `parameters.outputDimensionality`. Throws 400 for token-array input.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api
 */
export function convertToVertexEmbeddingRequest(request: EmbeddingRequest): VertexEmbeddingRequest {
  const list = Array.isArray(request.input) ? request.input : [request.input];
  if (list.some((item) => typeof item !== 'string'))
    throw invalidRequestError(
      "Invalid 'input': Vertex embedding models take text, not token arrays.",
      'input',
      'unsupported_value',
    );
  const taskType = (request as { task_type?: unknown }).task_type;
  const body: VertexEmbeddingRequest = {
    instances: (list as string[]).map((content) => ({
      content,
      ...(typeof taskType === 'string' ? { task_type: taskType } : {}),
    })),
  };
  if (request.dimensions != null) body.parameters = { outputDimensionality: request.dimensions };
  return body;
}

/**
 * Vertex `:predict` embeddings answer -> OpenAI embeddings list: `predictions[i].embeddings.values` in input order,
 * `usage.prompt_tokens` = the sum of `statistics.token_count` (tokens).
 */
export function convertVertexEmbeddingResponse(response: VertexEmbeddingResponse, model: string): EmbeddingResponse {
  const predictions = response.predictions ?? [];
  const tokens = predictions.reduce((sum, p) => sum + (p.embeddings?.statistics?.token_count ?? 0), 0);
  return {
    object: 'list',
    data: predictions.map((p, index) => ({ object: 'embedding', index, embedding: p.embeddings?.values ?? [] })),
    model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
