import { type AnthropicBetaRules, adaptAnthropicBetas, mergeAnthropicBetas } from '@switchyard/provider-anthropic';

/** The `anthropic_version` Claude on Bedrock's InvokeModel requires in the body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * What Bedrock's InvokeModel rejects of Anthropic's betas (`400 invalid beta flag`), as reported against Bedrock by
 * Claude Code users: first-party-only betas are left out, and Anthropic's `advanced-tool-use-2025-11-20` (tool search,
 * `defer_loading`) is Bedrock's `tool-search-tool-2025-10-19`. Every other beta is passed on.
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html
 */
export const BEDROCK_BETA_RULES: AnthropicBetaRules = {
  rejected: ['oauth-2025-04-20', 'prompt-caching-scope-2026-01-05', 'fast-mode-2026-02-01', 'redact-thinking-2026-02-12', 'mcp-servers-2025-12-04'],
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
export function toBedrockInvokeBody(request: Record<string, unknown>, clientHeaders: Readonly<Record<string, string>> | undefined): Record<string, unknown> {
  const { model: _model, stream: _stream, anthropic_beta: bodyBetas, ...rest } = request;
  const listed = Array.isArray(bodyBetas) ? bodyBetas.filter((b): b is string => typeof b === 'string').join(',') : undefined;
  const betas = adaptAnthropicBetas(mergeAnthropicBetas(clientHeaders?.['anthropic-beta'], listed), BEDROCK_BETA_RULES);
  return { ...rest, anthropic_version: typeof rest.anthropic_version === 'string' ? rest.anthropic_version : BEDROCK_ANTHROPIC_VERSION, ...(betas.length > 0 && { anthropic_beta: betas }) };
}
