export { type AnthropicErrorBody, encodeAnthropicErrorEvent, toAnthropicError } from './anthropic-error.js';
export {
  type AnthropicContentBlock,
  type AnthropicMessage,
  type AnthropicUsage,
  toAnthropicUsage,
  toChatUsage,
  toStopReason,
} from './anthropic-message.js';
export { convertChatCompletion, newMessageId, parseToolInput } from './convert-chat-completion.js';
export { convertChatStream } from './convert-chat-stream.js';
export { type ConvertedMessagesRequest, convertMessagesRequest } from './convert-messages-request.js';
export { type ConvertedMessagesTools, convertMessagesTools } from './convert-messages-tools.js';
export {
  type WebSearchBlocks,
  type WebSearchCitation,
  citedSources,
  toWebSearchBlocks,
  toWebSearchCitations,
} from './web-search-blocks.js';
export { isWebSearchTool, toWebSearchOptions } from './web-search-tool.js';
export { encodeAnthropicEvent } from './encode-anthropic-event.js';
export { mapMessagesReasoning } from './map-messages-reasoning.js';
export {
  ANTHROPIC_ONLY_BLOCK_TYPES,
  type CountTokensRequest,
  countTokensRequestSchema,
  MAX_MESSAGES,
  type MessageContentBlock,
  type MessagesRequest,
  messageParamSchema,
  messagesRequestSchema,
} from './messages-request-schema.js';
export { passThroughEvents } from './pass-through-events.js';
export { promptText } from './prompt-text.js';
export { validateCountTokensRequest, validateMessagesRequest } from './validate-messages-request.js';
