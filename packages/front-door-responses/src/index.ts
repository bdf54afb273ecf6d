export { convertChatCompletion } from './convert-chat-completion.js';
export { convertChatStream } from './convert-chat-stream.js';
export { type ConversationItem, convertItemsToChatMessages, declaredTools } from './convert-items-to-chat-messages.js';
export {
  CHAT_TO_RESPONSES_PARAM,
  type ConvertResponsesOptions,
  convertResponsesRequest,
} from './convert-responses-request.js';
export {
  type ConvertedTools,
  type HostedToolSupport,
  convertResponsesToolChoice,
  convertResponsesTools,
} from './convert-responses-tools.js';
export { customInputOf, toToolCallItem } from './convert-tool-call-item.js';
export { CustomInputStream } from './custom-input-stream.js';
export { NAMESPACE_SEPARATOR, type ResponsesToolRef, ToolNameMap, flattenToolName } from './responses-tool-names.js';
export { convertUsage } from './convert-usage.js';
export { toWebSearchCallItem } from './web-search-call-item.js';
export { type InputItemsQuery, type ResponseItemList, listInputItems } from './list-input-items.js';
export { forwardedResponsesHeaders } from './forwarded-headers.js';
export { encodeResponseErrorEvent, toResponseError } from './map-response-error-code.js';
export {
  DEFAULT_MEMORY_STORE_BYTES,
  MemoryResponseStore,
  type MemoryResponseStoreOptions,
} from './memory-response-store.js';
export { type StoredItem, loadConversation, resolveItemReferences } from './load-conversation.js';
export { newId } from './new-id.js';
export { type StoredInputItem, normalizeInputItems } from './normalize-input-items.js';
export type * from './response-object.js';
export { collectOutputText, newResponseObject } from './response-object.js';
export {
  DEFAULT_MAX_BYTES_PER_OWNER,
  itemOfResponse,
  type ResponseStore,
  type ResponseStoreLimits,
  type StoredResponse,
  storedItemIds,
} from './response-store.js';
export { nativeRequestBody, storedNativeInputItems, toUpstreamItem } from './native-request.js';
export { passNativeResponseEvents, presentNativeResponse } from './native-response.js';
export {
  type DeletedResponse,
  type PreparedNativeResponse,
  type PreparedResponse,
  ResponsesFrontDoor,
  type ResponsesFrontDoorOptions,
} from './responses-front-door.js';
export { type ResponsesRequest, responsesRequestSchema } from './responses-request-schema.js';
export { type ResponsesStreamEvent, encodeResponsesEvent } from './responses-stream-event.js';
