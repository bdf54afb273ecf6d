import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  checkRequestParameters,
  type ChatCompletionRequest,
  GatewayError,
  type GatewayWarning,
  type ProviderAdapter,
  type UpstreamErrorMapper,
  type UpstreamTimeouts,
  invalidRequestError,
  parseSSEStream,
  readUpstreamJson,
  sendUpstreamRequest,
} from '@switchyard/core';
import {
  type AnthropicBetaRules,
  adaptAnthropicBetas,
  anthropicEventsResult,
  anthropicJsonResult,
  convertAnthropicResponse,
  convertAnthropicStream,
  convertToAnthropicRequest,
  mapAnthropicError,
  mapAnthropicPassThroughError,
  mergeAnthropicBetas,
  readAnthropicCountTokens,
  readAnthropicMessage,
} from '@switchyard/provider-anthropic';
import {
  geminiGenerateContentResponseSchema,
  imagenPredictResponseSchema,
  checkGeminiParameters,
  checkImagenParameters,
  convertGeminiResponse,
  convertGeminiStream,
  convertImagenResponse,
  convertToGeminiRequest,
  convertToImagenRequest,
  mapGeminiError,
} from '@switchyard/provider-google';
import { vertexEmbeddingResponseSchema } from './vertex-api.js';
import { convertToImagenEditRequest } from './imagen-edit.js';
import {
  VERTEX_EMBEDDING_PARAMETERS,
  convertToVertexEmbeddingRequest,
  convertVertexEmbeddingResponse,
} from './vertex-embeddings.js';
import type { VertexTokenSource } from './vertex-token-source.js';

/** The `anthropic_version` Claude on Vertex requires in the body (instead of the `anthropic-version` header). */
export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

/**
 * What Claude on Vertex rejects of Anthropic's betas, and how the rest is adapted, in the `anthropic-beta` header. A
 * deny-list (every beta not listed is passed on), checked on 2026-11-26:
 * - `advanced-tool-use-2025-11-20` (tool search, `defer_loading`) is Vertex's `tool-search-tool-2025-10-19`, as Claude
 *   Code itself sends on Vertex (`TOOL_SEARCH_BETA_HEADER_3P`: "Vertex AI / Bedrock: tool-search-tool-2025-10-19").
 * - Left out, features Anthropic's docs list for the Claude API only: the Files API (`files-api-2025-04-14`), Agent
 *   Skills (`skills-2025-10-02`), code execution (`code-execution-2025-08-25`), the MCP connector (`mcp-client-*`,
 *   `mcp-servers-2025-12-04`), web fetch (`web-fetch-2025-09-10`), the advisor tool (`advisor-tool-2026-03-01`); and
 *   claude.ai's own `oauth-2025-04-20`, `fast-mode-2026-02-01` and `prompt-caching-scope-2026-01-05`.
 * - Passed on: web search (`web-search-2025-03-05`; Anthropic's web search tool is offered on Vertex), thinking,
 *   context (`context-1m-2025-08-07`, `context-management-2025-06-27`) and every beta not named above.
 * @see https://docs.anthropic.com/en/api/claude-on-vertex-ai
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude
 * @see https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool (supported platforms)
 * @see https://platform.claude.com/docs/en/api/beta-headers
 */
export const VERTEX_BETA_RULES: AnthropicBetaRules = {
  rejected: [
    'oauth-2025-04-20',
    'fast-mode-2026-02-01',
    'prompt-caching-scope-2026-01-05',
    'mcp-servers-2025-12-04',
    'mcp-client-2025-04-04',
    'mcp-client-2025-11-20',
    'files-api-2025-04-14',
    'skills-2025-10-02',
    'code-execution-2025-08-25',
    'web-fetch-2025-09-10',
    'advisor-tool-2026-03-01',
  ],
  renamed: { 'advanced-tool-use-2025-11-20': 'tool-search-tool-2025-10-19' },
};

/** The `anthropic-beta` header of a pass-through call to Claude on Vertex: the client's, adapted by {@link VERTEX_BETA_RULES}. */
function vertexBetaHeader(clientHeaders: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const betas = adaptAnthropicBetas(mergeAnthropicBetas(clientHeaders?.['anthropic-beta']), VERTEX_BETA_RULES);
  return betas.length > 0 ? { 'anthropic-beta': betas.join(',') } : {};
}

/** Options of {@link createVertex}. */
export interface VertexOptions {
  /** Google Cloud project id. */
  project: string;
  /** Region, e.g. `us-central1`, or `global`. */
  location: string;
  /** Access tokens (see `createVertexTokenSource`). */
  tokens: VertexTokenSource;
  /** The endpoint origin. Default `https://{location}-aiplatform.googleapis.com` (`global`: `https://aiplatform.googleapis.com`). */
  baseURL?: string;
  /** `max_tokens` (tokens) sent to Claude when a request gives none. Default 4,096. */
  defaultMaxTokens?: number;
  /** Per-call upstream limits, ms (see core's `UpstreamTimeouts`). */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
}

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
  const origin = (
    options.baseURL ??
    (options.location === 'global'
      ? 'https://aiplatform.googleapis.com'
      : `https://${options.location}-aiplatform.googleapis.com`)
  )
    .replace(/\/+$/, '')
    .replace(/\/v1$/, '');
  const root = `${origin}/v1/projects/${encodeURIComponent(options.project)}/locations/${encodeURIComponent(options.location)}/publishers`;
  // `@` (Claude's version separator, `claude-sonnet-4@20250514`) is a legal path character and stays literal.
  const modelURL = (publisher: 'google' | 'anthropic', model: string, method: string) =>
    `${root}/${publisher}/models/${encodeURIComponent(model).replace(/%40/g, '@')}:${method}`;

  /** Builds the error mapper of one call; `secrets` (the access token) are redacted from messages. */
  type ErrorMapperFor = (secrets: readonly string[]) => UpstreamErrorMapper;
  const sendOnce = async (
    url: string,
    body: unknown,
    context: AdapterCallContext,
    mapError: ErrorMapperFor,
    extraHeaders?: Record<string, string>,
  ) => {
    let token: string;
    try {
      token = await options.tokens.getToken();
    } catch (error) {
      throw new GatewayError({
        status: 502,
        type: 'server_error',
        code: 'upstream_auth_failed',
        message: `The provider '${context.provider}' could not get a Google access token: ${(error as Error).message}`,
        cause: error,
      });
    }
    return sendUpstreamRequest({
      provider: context.provider,
      url,
      method: 'POST',
      headers: {
        ...context.headers,
        ...extraHeaders,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-request-id': context.requestId,
      },
      body: JSON.stringify(body),
      signal: context.signal,
      timeouts: options.timeouts,
      upstream: context.upstream,
      mapError: mapError([token]),
    });
  };
  /** Sends once; on a 401 (an expired or revoked token) forgets the token and sends once more. */
  const send = async (
    url: string,
    body: unknown,
    context: AdapterCallContext,
    mapError: ErrorMapperFor,
    extraHeaders?: Record<string, string>,
  ) => {
    try {
      return await sendOnce(url, body, context, mapError, extraHeaders);
    } catch (error) {
      if (!GatewayError.isInstance(error) || error.status !== 401) throw error;
      options.tokens.invalidate();
      return sendOnce(url, body, context, mapError, extraHeaders);
    }
  };
  const googleErrors =
    (context: AdapterCallContext): ErrorMapperFor =>
    (secrets) =>
    (status, text, headers) =>
      mapGeminiError(context.provider, status, text, headers, secrets);

  const claude = async (request: ChatCompletionRequest, context: AdapterCallContext) => {
    if ((request.n ?? 1) > 1)
      throw invalidRequestError("'n' above 1 is not supported for Claude on Vertex.", 'n', 'unsupported_parameter');
    const { body, jsonMode, warnings } = convertToAnthropicRequest(request, {
      defaultMaxTokens: options.defaultMaxTokens,
    });
    for (const warning of warnings) context.warn(warning);
    const { model: _model, ...rest } = body;
    const vertexBody = { ...rest, anthropic_version: VERTEX_ANTHROPIC_VERSION };
    const mapError: ErrorMapperFor = (secrets) => (status, text, headers) =>
      mapAnthropicError(context.provider, status, text, headers, secrets);
    if (request.stream) {
      const response = await send(
        modelURL('anthropic', request.model, 'streamRawPredict'),
        vertexBody,
        context,
        mapError,
      );
      return convertAnthropicStream(parseSSEStream(response.body), {
        provider: context.provider,
        signal: context.signal,
        jsonMode,
        jsonText: jsonMode && body.tool_choice?.type === 'auto',
      });
    }
    const response = await send(modelURL('anthropic', request.model, 'rawPredict'), vertexBody, context, mapError);
    return convertAnthropicResponse(await readAnthropicMessage(context.provider, response, context.signal), {
      jsonMode,
    });
  };

  /** Claude's errors on the pass-through, kept as they came (see `mapAnthropicPassThroughError`). */
  const passThroughErrors =
    (context: AdapterCallContext): ErrorMapperFor =>
    (secrets) =>
    (status, text, headers) =>
      mapAnthropicPassThroughError(context.provider, status, text, headers, secrets);
  /** An Anthropic Messages body -> Claude on Vertex's: `model` (in the URL) left out, Vertex's `anthropic_version` unless the body has one. */
  const vertexClaudeBody = (request: Record<string, unknown>, keepModel = false) => {
    const { model, ...rest } = request;
    return {
      ...(keepModel && { model }),
      ...rest,
      anthropic_version: typeof rest.anthropic_version === 'string' ? rest.anthropic_version : VERTEX_ANTHROPIC_VERSION,
    };
  };

  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'vertex',
    // Gemini: Google Search grounding; Claude on Vertex: Anthropic's web search server tool (see chatCompletions).
    webSearch: true,

    passesThrough(operation, model) {
      return operation !== 'openaiResponses' && isClaude(model);
    },

    async anthropicMessages(request, context) {
      const model = String(request.model);
      const method = request.stream === true ? 'streamRawPredict' : 'rawPredict';
      const response = await send(
        modelURL('anthropic', model, method),
        vertexClaudeBody(request),
        context,
        passThroughErrors(context),
        vertexBetaHeader(context.clientHeaders),
      );
      if (request.stream === true)
        return anthropicEventsResult(
          context.provider,
          parseSSEStream(response.body, { provider: context.provider }),
          [],
        );
      return anthropicJsonResult(context.provider, response, context.signal);
    },

    async anthropicCountTokens(request, context) {
      const response = await send(
        modelURL('anthropic', 'count-tokens', 'rawPredict'),
        vertexClaudeBody(request, true),
        context,
        passThroughErrors(context),
        vertexBetaHeader(context.clientHeaders),
      );
      return readAnthropicCountTokens(context.provider, response, context.signal);
    },

    async chatCompletions(request, context) {
      if (isClaude(request.model)) return claude(request, context);
      checkGeminiParameters(request, context);
      const warnings: GatewayWarning[] = [];
      const body = convertToGeminiRequest(request, warnings);
      for (const warning of warnings) context.warn(warning);
      if (request.stream) {
        const response = await send(
          `${modelURL('google', request.model, 'streamGenerateContent')}?alt=sse`,
          body,
          context,
          googleErrors(context),
        );
        return convertGeminiStream(parseSSEStream(response.body), context.provider, request.model, context.signal);
      }
      const response = await send(
        modelURL('google', request.model, 'generateContent'),
        body,
        context,
        googleErrors(context),
      );
      return convertGeminiResponse(
        await readUpstreamJson(context.provider, response, context.signal, geminiGenerateContentResponseSchema),
        request.model,
      );
    },

    async embeddings(request, context) {
      for (const warning of checkRequestParameters(request, VERTEX_EMBEDDING_PARAMETERS)) context.warn(warning);
      const response = await send(
        modelURL('google', request.model, 'predict'),
        convertToVertexEmbeddingRequest(request),
        context,
        googleErrors(context),
      );
      return convertVertexEmbeddingResponse(
        await readUpstreamJson(context.provider, response, context.signal, vertexEmbeddingResponseSchema),
        request.model,
      );
    },

    async imageGenerations(request, context) {
      checkImagenParameters(request, context);
      const response = await send(
        modelURL('google', request.model, 'predict'),
        convertToImagenRequest(request),
        context,
        googleErrors(context),
      );
      return convertImagenResponse(
        await readUpstreamJson(context.provider, response, context.signal, imagenPredictResponseSchema),
      );
    },

    async imageEdits(request, context) {
      const response = await send(
        modelURL('google', request.model, 'predict'),
        convertToImagenEditRequest(request, context),
        context,
        googleErrors(context),
      );
      return convertImagenResponse(
        await readUpstreamJson(context.provider, response, context.signal, imagenPredictResponseSchema),
      );
    },
  };
}
