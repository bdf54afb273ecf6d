import { ADAPTER_SPEC_VERSION, type ProviderAdapter } from '@switchyard/core';
import { claudeChatCompletion, vertexClaudePassThrough } from './vertex-claude.js';
import { geminiChatCompletion, vertexGoogleOperations } from './vertex-google-operations.js';
import type { VertexOptions } from './vertex-options.js';
import { vertexTransport } from './vertex-transport.js';

export { VERTEX_ANTHROPIC_VERSION, VERTEX_BETA_RULES } from './vertex-claude.js';
export type { VertexOptions } from './vertex-options.js';

/** True for model ids served by Anthropic's publisher on Vertex (`claude-sonnet-4@20250514`...). */
function isClaude(model: string): boolean {
  return model.startsWith('claude-');
}

/**
 * An adapter for Vertex AI, each call `POST {baseURL}/v1/projects/{project}/locations/{location}/publishers/...` with
 * `Authorization: Bearer <OAuth2 access token>`; on a 401 the token is fetched again and the call repeated once.
 * - `chatCompletions`: model ids starting with `claude-` go to Anthropic's publisher (`.../publishers/anthropic/models/
 *   {model}:rawPredict`, `:streamRawPredict` for streams), with provider-anthropic's translation and the body's
 *   `anthropic_version: "vertex-2023-10-16"` instead of `model` (`n` > 1 is a 400 there); every other id goes to
 *   Google's publisher (`:generateContent`, `:streamGenerateContent?alt=sse`) with provider-google's translation and
 *   parameter rule (`checkGeminiParameters`: a non-empty `logit_bias` is a 400, other untranslated fields are dropped
 *   with an `x-switchyard-warning`).
 * - `embeddings` -> `.../publishers/google/models/{model}:predict` (`text-embedding-005`...; see
 *   `convertToVertexEmbeddingRequest`).
 * - `imageGenerations` -> Imagen `.../publishers/google/models/{model}:predict` (see `convertToImagenRequest`).
 * - `imageEdits` -> Imagen's editing model (`imagen-3.0-capability-001`) `:predict`: one image, the mask converted to
 *   Imagen's (see `convertToImagenEditRequest`), answered as images; a streamed edit gets one completed event per image.
 * - `anthropicMessages` (the `/v1/messages` pass-through, `claude-` ids only) -> `:rawPredict` / `:streamRawPredict` with
 *   Anthropic's body as it came (`model` in the URL, `anthropic_version: "vertex-2023-10-16"`), the client's betas in
 *   the `anthropic-beta` header (adapted by {@link VERTEX_BETA_RULES}); answers and errors unchanged.
 *   `anthropicCountTokens` -> `.../publishers/anthropic/models/count-tokens:rawPredict`.
 * Audio and the model list are absent (400 `unsupported_operation`). Errors: Google's `{"error":{code,message,status}}`
 * through provider-google's `mapGeminiError` (Claude's through provider-anthropic's `mapAnthropicError`); 502
 * `upstream_invalid_response` naming the provider for an answer or stream event that is not JSON or not of the
 * documented shape (provider-google's and provider-anthropic's zod schemas, `vertexEmbeddingResponseSchema`); 502/504
 * for transport failures; the abort reason when `context.signal` aborts.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest
 * @see https://docs.anthropic.com/en/api/claude-on-vertex-ai
 */
export function createVertex(options: VertexOptions): ProviderAdapter {
  const transport = vertexTransport(options);
  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'vertex',
    // Gemini: Google Search grounding; Claude on Vertex: Anthropic's web search server tool (see chatCompletions).
    webSearch: true,

    passesThrough(operation, model) {
      return operation !== 'openaiResponses' && isClaude(model);
    },

    ...vertexClaudePassThrough(transport),

    async chatCompletions(request, context) {
      if (isClaude(request.model)) return claudeChatCompletion(transport, options, request, context);
      return geminiChatCompletion(transport, request, context);
    },

    ...vertexGoogleOperations(transport),
  };
}
