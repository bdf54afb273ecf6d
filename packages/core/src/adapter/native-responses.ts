import type { NativeMessagesResult } from './native-messages.js';

/**
 * What an adapter's OpenAI Responses pass-through answers: the upstream's JSON `response` object unchanged, or (when the
 * request had `stream: true`) its server-sent events unchanged, in order, as they arrive (`event:` name and `data:`
 * text with OpenAI's `sequence_number`). `usage` is the call's usage in chat terms (tokens: `input_tokens` ->
 * `prompt_tokens`, `output_tokens` -> `completion_tokens`, cached and reasoning tokens in their details), for metering:
 * a value for JSON, a function read once the stream has ended for events. Same shape as {@link NativeMessagesResult}.
 * @see https://platform.openai.com/docs/api-reference/responses/create
 */
export type NativeResponsesResult = NativeMessagesResult;
