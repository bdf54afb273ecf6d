import type { z } from 'zod';
import { bedrockCohereEmbedResponseSchema, titanEmbeddingResponseSchema } from './bedrock-api.js';
import {
  type AdapterCallContext,
  type EmbeddingRequest,
  type EmbeddingResponse,
  invalidRequestError,
  readUpstreamJson,
} from '@switchyard/core';
import type { BedrockTransport } from './bedrock-transport.js';

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

/**
 * The embeddings of `request` from Bedrock: the invocations {@link planBedrockEmbeddings} plans, run at once through
 * `transport` (`POST /model/{model}/invoke`), joined into one OpenAI list answer in input order with the summed input
 * tokens (the answer's, else the `x-amzn-bedrock-input-token-count` header, else 0).
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/titan-embedding-models.html
 */
export async function invokeBedrockEmbeddings(
  transport: Pick<BedrockTransport, 'send' | 'modelURL'>,
  request: EmbeddingRequest,
  context: AdapterCallContext,
): Promise<EmbeddingResponse> {
  const { send, modelURL } = transport;
  const invocations = planBedrockEmbeddings(request);
  const answers = await Promise.all(
    invocations.map(async (invocation) => {
      const response = await send(modelURL(request.model, 'invoke'), context, invocation.body);
      const answer = await readUpstreamJson(context.provider, response, context.signal, invocation.schema);
      const headerTokens = Number(response.headers['x-amzn-bedrock-input-token-count']);
      return {
        vectors: answer.vectors,
        tokens: answer.tokens ?? (Number.isSafeInteger(headerTokens) && headerTokens >= 0 ? headerTokens : 0),
      };
    }),
  );
  const vectors = answers.flatMap((a) => a.vectors);
  const tokens = answers.reduce((sum, a) => sum + a.tokens, 0);
  const response: EmbeddingResponse = {
    object: 'list',
    data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
    model: request.model,
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
  return response;
}
