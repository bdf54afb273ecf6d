export {
  type AnthropicBetaRules,
  adaptAnthropicBetas,
  anthropicPassThroughHeaders,
  configBeta,
  mergeAnthropicBetas,
} from './anthropic-beta-headers.js';
export {
  anthropicCountTokensSchema,
  anthropicEventsResult,
  anthropicJsonResult,
  anthropicPassThroughAnswerSchema,
  readAnthropicCountTokens,
} from './anthropic-pass-through.js';
export type * from './anthropic-response-schemas.js';
export type * from './anthropic-types.js';
export {
  ANTHROPIC_EFFORTS,
  ANTHROPIC_THINKING_BUDGETS,
  applyAnthropicReasoning,
  usesAdaptiveThinking,
} from './apply-anthropic-reasoning.js';
export { checkUnsupportedParameters } from './check-unsupported-parameters.js';
export { type AnthropicResponseOptions, convertAnthropicResponse } from './convert-anthropic-response.js';
export { type AnthropicStreamOptions, convertAnthropicStream } from './convert-anthropic-stream.js';
export { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
export { convertToAnthropicRequest, type PreparedAnthropicRequest } from './convert-to-anthropic-request.js';
export { type AnthropicToolsPlan, convertToAnthropicTools } from './convert-to-anthropic-tools.js';
export { type AnthropicOptions, createAnthropic } from './create-anthropic.js';
export { JSON_RESPONSE_TOOL_NAME, jsonResponseTool } from './json-response-tool.js';
export { readAnthropicMessage } from './read-anthropic-message.js';
export { mapAnthropicError, mapAnthropicPassThroughError, mapAnthropicStreamError } from './map-anthropic-error.js';
export { type MappedFinishReason, mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
export { mapAnthropicUsage, mergeAnthropicUsage } from './map-anthropic-usage.js';
export { DEFAULT_MAX_TOKENS, type MaxTokensDefaults, resolveMaxTokens } from './resolve-max-tokens.js';
export { type AnthropicSettings, anthropicSettingsSchema, switchyardProvider } from './switchyard-provider.js';
export { thinkingDetail } from './thinking-detail.js';
export {
  type AnthropicWebSearchTool,
  WEB_SEARCH_TOOL_NAME,
  webSearchCallOf,
  webSearchTool,
} from './web-search-tool.js';
