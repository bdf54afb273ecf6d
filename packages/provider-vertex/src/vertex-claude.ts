import {
  type AdapterCallContext,
  type ChatCompletionRequest,
  type ProviderAdapter,
  invalidRequestError,
  parseSSEStream,
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
  mergeAnthropicBetas,
  readAnthropicCountTokens,
  readAnthropicMessage,
} from '@switchyard/provider-anthropic';
import type { VertexOptions } from './vertex-options.js';
import { type ErrorMapperFor, type VertexTransport, passThroughErrors } from './vertex-transport.js';

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

/** An Anthropic Messages body -> Claude on Vertex's: `model` (in the URL) left out, Vertex's `anthropic_version` unless the body has one. */
function vertexClaudeBody(request: Record<string, unknown>, keepModel = false) {
  const { model, ...rest } = request;
  return {
    ...(keepModel && { model }),
    ...rest,
    anthropic_version: typeof rest.anthropic_version === 'string' ? rest.anthropic_version : VERTEX_ANTHROPIC_VERSION,
  };
}

/**
 * A chat completion by Claude on Vertex: provider-anthropic's translation with Vertex's `anthropic_version` instead of
 * `model`, to `:rawPredict` or `:streamRawPredict`. Throws 400 naming `n` when `n` > 1.
 * @see https://docs.anthropic.com/en/api/claude-on-vertex-ai
 */
export async function claudeChatCompletion(
  { send, modelURL }: VertexTransport,
  options: VertexOptions,
  request: ChatCompletionRequest,
  context: AdapterCallContext,
): ReturnType<NonNullable<ProviderAdapter['chatCompletions']>> {
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
}

/**
 * The `/v1/messages` pass-through to Claude on Vertex: `anthropicMessages` -> `:rawPredict` / `:streamRawPredict` with
 * the body as it came (see `vertexClaudeBody`) and the client's betas adapted by {@link VERTEX_BETA_RULES}, answers
 * and errors unchanged; `anthropicCountTokens` -> `.../publishers/anthropic/models/count-tokens:rawPredict`.
 */
export function vertexClaudePassThrough({
  send,
  modelURL,
}: VertexTransport): Required<Pick<ProviderAdapter, 'anthropicMessages' | 'anthropicCountTokens'>> {
  return {
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
  };
}
