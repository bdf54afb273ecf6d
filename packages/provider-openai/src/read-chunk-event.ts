import {
  type ChatCompletionChunk,
  type ServerSentEvent,
  GatewayError,
  StrayStreamTextError,
  checkChatCompletionChunk,
  describeIssue,
  mapTransportError,
  redactSecrets,
  rememberJsonText,
  upstreamErrorCode,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { chatStreamErrorSchema } from './openai-error-schema.js';

/**
 * What a chat stream's scan throws for `error`: a GatewayError as it is; stray text (not SSE) mapped like an error
 * event when it is an `{"error":{...}}` body, else 502 `upstream_invalid_response`; a transport error mapped (502/504,
 * or the abort reason).
 */
export function scanError(
  provider: string,
  error: unknown,
  signal: AbortSignal,
  secrets: readonly (string | undefined)[],
): unknown {
  if (GatewayError.isInstance(error)) return error;
  if (StrayStreamTextError.isInstance(error)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(error.text);
    } catch {
      parsed = undefined;
    }
    return (
      streamError(provider, parsed, secrets) ??
      upstreamInvalidResponseError(provider, 'the stream holds text that is not an event.')
    );
  }
  return mapTransportError(provider, error, signal);
}

/**
 * An OpenAI stream event's `data` parsed as JSON. Throws 502 `upstream_invalid_response` when it is not JSON, and the
 * upstream's error (its fields redacted of `secrets`) when it is an `{"error":{...}}` body (see {@link streamError}).
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export function parseEventData(provider: string, data: string, secrets: readonly (string | undefined)[]): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch (error) {
    throw upstreamInvalidResponseError(provider, 'a stream event is not valid JSON.', error);
  }
  const upstreamError = streamError(provider, parsed, secrets);
  if (upstreamError) throw upstreamError;
  return parsed;
}

/**
 * One event of an OpenAI chat stream as a checked chunk (its text remembered when taken as it came), or undefined for
 * an event that is not a chunk (blank data, named events other than `error`, objects of another kind). Throws 502
 * `upstream_invalid_response` for bad JSON or a chunk of the wrong shape, the upstream's error for an error event.
 */
export function readChunkEvent(
  provider: string,
  event: ServerSentEvent,
  secrets: readonly (string | undefined)[],
  fix: ((chunk: ChatCompletionChunk) => ChatCompletionChunk) | undefined,
): ChatCompletionChunk | undefined {
  if (event.data.trim() === '') return undefined;
  // Named events other than `error` (e.g. `event: ping`) are not chunks: skipped.
  if (event.event !== undefined && event.event !== 'message' && event.event !== 'error') return undefined;
  const parsed = parseEventData(provider, event.data, secrets);
  // An event of another kind (e.g. Azure's `prompt_filter_results` preamble, `object: ""`) is not a chunk: skipped.
  const kind = (parsed as { object?: unknown }).object;
  if (kind !== undefined && kind !== 'chat.completion.chunk') return undefined;
  const raw = (
    kind === undefined ? { ...(parsed as object), object: 'chat.completion.chunk' } : parsed
  ) as ChatCompletionChunk;
  // Checked after a preset's fixes (`fix`: Mistral omits tool call indexes, for one).
  const checked = checkChatCompletionChunk(fix ? fixChunk(provider, raw, fix) : raw);
  if (!checked.success)
    throw upstreamInvalidResponseError(
      provider,
      `a stream event is not a chat.completion.chunk (${describeIssue(checked.error)}).`,
    );
  const chunk = checked.data;
  // An event the gateway took as it came is forwarded as its own text (not serialised again).
  if (chunk === parsed && !fix) rememberJsonText(chunk, event.data);
  return chunk;
}

/**
 * The GatewayError (502, the upstream's message, type and code) for an `{"error":{...}}` object sent mid-stream, read
 * through `chatStreamErrorSchema` (a field of the wrong type is left out); undefined when `parsed` has no error object.
 */
export function streamError(
  provider: string,
  parsed: unknown,
  secrets: readonly (string | undefined)[],
): GatewayError | undefined {
  // Most events are chunks, with no `error` member: the schema would refuse them, at the cost of a ZodError each.
  if (typeof parsed !== 'object' || parsed === null || (parsed as { error?: unknown }).error === undefined)
    return undefined;
  const read = chatStreamErrorSchema.safeParse(parsed);
  if (!read.success) return undefined;
  const upstreamError = read.data.error;
  // Every field is redacted: an upstream may echo the key in any of them.
  const text = (value: string | undefined) => (value ? redactSecrets(value, secrets) : undefined);
  return new GatewayError({
    status: 502,
    type: text(upstreamError.type) ?? 'server_error',
    code: upstreamErrorCode(text(upstreamError.code)) ?? 'upstream_stream_error',
    param: text(upstreamError.param) ?? null,
    message: text(upstreamError.message) ?? `The upstream provider '${provider}' failed mid-stream.`,
  });
}

/**
 * A preset's fix of one chunk; a fix that throws (it read a field the event lacks, e.g. `choices` that is not an array)
 * makes the event itself the one checked, so that the 502 `upstream_invalid_response` names what is wrong.
 */
function fixChunk(
  provider: string,
  raw: ChatCompletionChunk,
  fix: (chunk: ChatCompletionChunk) => ChatCompletionChunk,
): unknown {
  try {
    return fix(raw);
  } catch (error) {
    const checked = checkChatCompletionChunk(raw);
    const detail = checked.success ? 'it could not be read' : describeIssue(checked.error);
    throw upstreamInvalidResponseError(provider, `a stream event is not a chat.completion.chunk (${detail}).`, error);
  }
}
