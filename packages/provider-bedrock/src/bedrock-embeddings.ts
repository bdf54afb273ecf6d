import type { z } from 'zod';
import { bedrockCohereEmbedResponseSchema, titanEmbeddingResponseSchema } from './bedrock-api.js';
import { type EmbeddingRequest, invalidRequestError } from '@switchyard/core';

/** One InvokeModel call of an embeddings request: its body, and how to read the vectors and token count back. */
export interface EmbeddingInvocation {
  body: unknown;
  /**
   * The answer's schema, read as its vectors (in input order) and its input tokens when the body reports them (Titan;
   * else the caller reads the `x-amzn-bedrock-input-token-count` header).
   */
  schema: z.ZodType<{ vectors: number[][]; tokens: number | undefined }>;
}

function textInputs(request: EmbeddingRequest): string[] {
  const input = request.input;
  const list = Array.isArray(input) ? input : [input];
  if (list.some((item) => typeof item !== 'string')) {
    throw invalidRequestError(
      "Invalid 'input': Bedrock embedding models take text, not token arrays.",
      'input',
      'unsupported_value',
    );
  }
  return list as string[];
}

/**
 * OpenAI embeddings request -> InvokeModel calls for Bedrock's embedding families (chosen by model id):
 * - Amazon Titan Text Embeddings (`amazon.titan-embed-text-*`): one call per input (the API embeds one text);
 *   v2 gets `{inputText, dimensions, normalize: true}` (`dimensions` 256, 512 or 1024, default 1024; vectors are
 *   unit-length as OpenAI's are), v1 `{inputText}` only (a `dimensions` is then a 400). Answer `{embedding,
 *   inputTextTokenCount}`.
 * - Cohere Embed (`cohere.embed-*`): one call for the whole batch `{texts, input_type, embedding_types: ["float"]}`
 *   (`input_type` from the request's extra `input_type` field, default `search_document`; `dimensions` is a 400: the
 *   v3 models have a fixed size). Answer `{embeddings: {float: [[...]]}}` (or a plain array).
 * Throws 400 for other models, token-array input, or a `dimensions` the model cannot give.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-embed.html
 */
export function planBedrockEmbeddings(request: EmbeddingRequest): EmbeddingInvocation[] {
  const texts = textInputs(request);
  const model = request.model.replace(/^[a-z]{2}\./, ''); // Cross-region inference profiles: us.cohere.embed-...
  if (model.startsWith('amazon.titan-embed-text-v1') || model.startsWith('amazon.titan-embed-g1-text')) {
    if (request.dimensions != null)
      throw invalidRequestError(
        `Invalid 'dimensions': '${request.model}' gives fixed-size vectors; use amazon.titan-embed-text-v2:0.`,
        'dimensions',
        'unsupported_parameter',
      );
    return texts.map((inputText) => titan({ inputText }));
  }
  if (model.startsWith('amazon.titan-embed-text')) {
    if (request.dimensions != null && ![256, 512, 1024].includes(request.dimensions)) {
      throw invalidRequestError(
        "Invalid 'dimensions': Titan Text Embeddings v2 gives 256, 512 or 1024 dimensions.",
        'dimensions',
        'invalid_value',
      );
    }
    return texts.map((inputText) =>
      titan({ inputText, ...(request.dimensions != null ? { dimensions: request.dimensions } : {}), normalize: true }),
    );
  }
  if (model.startsWith('cohere.embed')) {
    if (request.dimensions != null)
      throw invalidRequestError(
        `Invalid 'dimensions': '${request.model}' gives fixed-size vectors.`,
        'dimensions',
        'unsupported_parameter',
      );
    const inputType = (request as { input_type?: unknown }).input_type;
    return [
      {
        body: {
          texts,
          input_type: typeof inputType === 'string' ? inputType : 'search_document',
          embedding_types: ['float'],
        },
        schema: bedrockCohereEmbedResponseSchema,
      },
    ];
  }
  throw invalidRequestError(
    `The model '${request.model}' is not an embedding model this adapter can call on Bedrock (Amazon Titan Text Embeddings or Cohere Embed).`,
    'model',
    'unsupported_model',
  );
}

function titan(body: Record<string, unknown>): EmbeddingInvocation {
  return {
    body,
    schema: titanEmbeddingResponseSchema,
  };
}
