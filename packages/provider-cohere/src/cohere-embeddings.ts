import {
  type EmbeddingRequest,
  type EmbeddingResponse,
  type ParameterRules,
  invalidRequestError,
} from '@switchyard/core';
import type { CohereEmbedResponse } from './cohere-api.js';

/** Cohere's `input_type` values. @see https://docs.cohere.com/reference/embed#request.body.input_type */
export const COHERE_INPUT_TYPES = ['search_document', 'search_query', 'classification', 'clustering', 'image'] as const;

/**
 * What the Cohere adapter does with each OpenAI embeddings field: `model`, `input`, `dimensions` (-> `output_dimension`),
 * `encoding_format` (the gateway encodes the float vectors) and Cohere's own `input_type` and `truncate` (extra fields)
 * are translated; anything else (`user`, unknown fields) is dropped with an `unsupported_parameter` warning (core's
 * `checkRequestParameters`).
 * @see https://docs.cohere.com/reference/embed
 */
export const COHERE_EMBEDDING_PARAMETERS: ParameterRules = {
  upstream: 'Cohere embedding models',
  handled: new Set(['model', 'input', 'dimensions', 'encoding_format', 'input_type', 'truncate']),
};

/**
 * OpenAI embeddings request -> Cohere `POST /v2/embed` body `{model, texts, input_type, embedding_types: ["float"],
 * output_dimension?, truncate?}`. `input_type` comes from the request's own `input_type` field when given, else
 * `defaultInputType` (config `input_type`, default `search_document`); `truncate` (`NONE`, `START`, `END`) is passed on
 * when given. Floats are always asked for: the gateway encodes them as base64 when the client asked
 * `encoding_format: "base64"`. Token-id input is a 400 naming `input`.
 */
export function convertToCohereEmbed(request: EmbeddingRequest, defaultInputType: string): Record<string, unknown> {
  const input = typeof request.input === 'string' ? [request.input] : request.input;
  if (!Array.isArray(input) || input.some((t) => typeof t !== 'string'))
    throw invalidRequestError(
      'Cohere embeds text: give input as a string or an array of strings.',
      'input',
      'unsupported_value',
    );
  const inputType = (request as { input_type?: unknown }).input_type ?? defaultInputType;
  if (!(COHERE_INPUT_TYPES as readonly unknown[]).includes(inputType)) {
    throw invalidRequestError(
      `Invalid 'input_type': one of ${COHERE_INPUT_TYPES.join(', ')}.`,
      'input_type',
      'invalid_value',
    );
  }
  const body: Record<string, unknown> = {
    model: request.model,
    texts: input,
    input_type: inputType,
    embedding_types: ['float'],
  };
  if (request.dimensions != null) body.output_dimension = request.dimensions;
  const truncate = (request as { truncate?: unknown }).truncate;
  if (typeof truncate === 'string') body.truncate = truncate;
  return body;
}

/** Cohere embed answer -> OpenAI embeddings list (input order), usage from the billed input tokens. */
export function convertCohereEmbed(answer: CohereEmbedResponse, model: string): EmbeddingResponse {
  const vectors = answer.embeddings.float ?? [];
  const tokens = answer.meta?.billed_units?.input_tokens ?? 0;
  return {
    object: 'list',
    model,
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}
