import { type AnthropicBetaRules, adaptAnthropicBetas, mergeAnthropicBetas } from '@switchyard/provider-anthropic';

/** The `anthropic_version` Claude on Bedrock's InvokeModel requires in the body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * What Bedrock's InvokeModel rejects of Anthropic's betas (`400 invalid beta flag`), and how the rest is adapted. A
 * deny-list (every beta not listed is passed on, so a new beta works the day Bedrock ships it), checked on 2026-11-26:
 * - `advanced-tool-use-2025-11-20` (tool search, `defer_loading`) is Bedrock's `tool-search-tool-2025-10-19`: AWS's
 *   tool search sample gates the feature behind that beta, and Claude Code's own table sends it to Bedrock and Vertex
 *   (`TOOL_SEARCH_BETA_HEADER_3P`); Anthropic's tool search page lists Bedrock as InvokeModel only (not Converse).
 * - Left out, features Anthropic's docs list for the Claude API only (not on Bedrock's `bedrock-runtime`): the Files API
 *   (`files-api-2025-04-14`), Agent Skills (`skills-2025-10-02`), code execution (`code-execution-2025-08-25`), the MCP
 *   connector (`mcp-client-2025-04-04`, `mcp-client-2025-11-20`, `mcp-servers-2025-12-04`), the web search and web
 *   fetch server tools (`web-search-2025-03-05`, `web-fetch-2025-09-10`), the advisor tool (`advisor-tool-2026-03-01`);
 *   and claude.ai's own `oauth-2025-04-20`, `fast-mode-2026-02-01`, `prompt-caching-scope-2026-01-05` and
 *   `redact-thinking-2026-02-12`, which Bedrock answers with `invalid beta flag` (reports against Bedrock by Claude Code
 *   users, the coder/aibridge#221 and LiteLLM beta-header incident write-ups).
 * - Passed on, because AWS documents them for Claude on InvokeModel: `computer-use-*`, `token-efficient-tools-2025-02-19`,
 *   `interleaved-thinking-2025-05-14`, `output-128k-2025-02-19`, `context-1m-2025-08-07`,
 *   `context-management-2025-06-27`, `effort-2025-11-24`, `tool-search-tool-2025-10-19`.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
 * @see https://github.com/aws-samples/anthropic-on-aws (Tool Search Tool notebook: "gated behind the beta header tool-search-tool-2025-10-19")
 * @see https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool (supported platforms)
 * @see https://platform.claude.com/docs/en/api/beta-headers
 * @see https://github.com/coder/aibridge/issues/221
 */
export const BEDROCK_BETA_RULES: AnthropicBetaRules = {
  rejected: [
    'oauth-2025-04-20',
    'prompt-caching-scope-2026-01-05',
    'fast-mode-2026-02-01',
    'redact-thinking-2026-02-12',
    'mcp-servers-2025-12-04',
    'mcp-client-2025-04-04',
    'mcp-client-2025-11-20',
    'files-api-2025-04-14',
    'skills-2025-10-02',
    'code-execution-2025-08-25',
    'web-search-2025-03-05',
    'web-fetch-2025-09-10',
    'advisor-tool-2026-03-01',
  ],
  renamed: { 'advanced-tool-use-2025-11-20': 'tool-search-tool-2025-10-19' },
};

/**
 * True for model ids Bedrock serves with Anthropic's native Messages body: `anthropic.claude-*`, cross-region
 * inference profiles (`us.anthropic.claude-*`, `global.anthropic.claude-*`) and ARNs naming one.
 */
export function isBedrockClaude(model: string): boolean {
  return /(^|[.:/])anthropic\.claude/.test(model);
}

/**
 * An Anthropic Messages body -> Bedrock InvokeModel's body for Claude: the same fields, unknown ones included, except
 * what Bedrock takes elsewhere: `model` (in the URL) and `stream` (the `invoke-with-response-stream` endpoint) are
 * left out; `anthropic_version` is Bedrock's ({@link BEDROCK_ANTHROPIC_VERSION}) unless the body has one; the
 * client's `anthropic-beta` header and any `anthropic_beta` already in the body become the `anthropic_beta` list,
 * adapted by {@link BEDROCK_BETA_RULES}.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html
 * @see https://code.claude.com/docs/en/llm-gateway-protocol
 */
export function toBedrockInvokeBody(
  request: Record<string, unknown>,
  clientHeaders: Readonly<Record<string, string>> | undefined,
): Record<string, unknown> {
  const { model: _model, stream: _stream, anthropic_beta: bodyBetas, ...rest } = request;
  const listed = Array.isArray(bodyBetas)
    ? bodyBetas.filter((b): b is string => typeof b === 'string').join(',')
    : undefined;
  const betas = adaptAnthropicBetas(mergeAnthropicBetas(clientHeaders?.['anthropic-beta'], listed), BEDROCK_BETA_RULES);
  return {
    ...rest,
    anthropic_version: typeof rest.anthropic_version === 'string' ? rest.anthropic_version : BEDROCK_ANTHROPIC_VERSION,
    ...(betas.length > 0 && { anthropic_beta: betas }),
  };
}
