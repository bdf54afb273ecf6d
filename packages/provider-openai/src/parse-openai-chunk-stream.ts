import {
  type ChatCompletionChunk,
  type ChunkBatch,
  type ScannedChunk,
  type ScannedRun,
  type ServerSentEvent,
  GatewayError,
  StrayStreamTextError,
  checkChatCompletionChunk,
  describeIssue,
  mapTransportError,
  parseSSEBatches,
  redactSecrets,
  rememberJsonText,
  upstreamErrorCode,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { ChunkTemplate } from './chunk-template.js';
import { chatStreamErrorSchema } from './openai-error-schema.js';

/**
 * Turns an OpenAI chat stream (`text/event-stream`: `data: <chunk JSON>` events, then `data: [DONE]`) into chunks,
 * yielded one by one as they arrive. A `data: {"error":{...}}` event throws a GatewayError with its fields (each one
 * redacted of `secrets`); a
 * connection that breaks throws 502/504; bad JSON, text that is not SSE (a bare JSON error body is mapped like an error
 * event), or a stream that ends without `[DONE]` before any finish_reason, throws 502 `upstream_invalid_response`.
 * Every chunk (after `fix`, a preset's repair) is checked against core's chunk schema (`checkChatCompletionChunk`; 502
 * `upstream_invalid_response` when it is not a chunk); a chunk taken as it came keeps its event text
 * (`rememberJsonText`), so the gateway forwards the upstream's bytes; named events
 * other than `error`, and events whose `object` is not `chat.completion.chunk`, are skipped. Reasoning fields
 * (`delta.reasoning_content` of DeepSeek, vLLM...) pass through untouched, with every other unknown field. Closing the iterator early destroys the upstream body.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export async function* parseOpenAIChunkStream(
  provider: string,
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
  signal: AbortSignal,
  secrets: readonly (string | undefined)[],
  fix?: (chunk: ChatCompletionChunk) => ChatCompletionChunk,
): AsyncGenerator<ChatCompletionChunk> {
  for await (const batch of scanOpenAIChunkBatches(provider, body, signal, secrets, fix, false)) {
    for (const item of batch) yield item.chunk!;
  }
}

/**
 * {@link parseOpenAIChunkStream} one network read at a time, as core's `ChunkBatch`es (same events skipped, same
 * errors, same end). With `passPlain`, the plain text deltas that repeat the stream's last checked text delta but for
 * their content (see {@link ChunkTemplate}) are not parsed: they come as their text and decoded content only, for the
 * gateway's byte pass-through, and those that follow one another in a plain read (core's `SSEBatch` with bytes) are
 * also given as a `ScannedRun` of the read's bytes; every other event is parsed and checked as in
 * {@link parseOpenAIChunkStream}.
 */
export async function* scanOpenAIChunkBatches(
  provider: string,
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
  signal: AbortSignal,
  secrets: readonly (string | undefined)[],
  fix: ((chunk: ChatCompletionChunk) => ChatCompletionChunk) | undefined,
  passPlain: boolean,
): AsyncGenerator<ChunkBatch> {
  let finished = false;
  let sawFinishReason = false;
  let first = true;
  const template = passPlain && !fix ? new ChunkTemplate() : undefined;
  try {
    // One generator step per network read, not per event (a read often holds dozens of chunks).
    for await (const { events, bytes, ends } of parseSSEBatches(body, { drainOnReturn: true })) {
      let batch: ChunkBatch = [];
      // The run of plain text deltas the last one belongs to, and that one's index in `events`.
      let run: ScannedRun | undefined;
      let runLast = -2;
      for (let i = 0; i < events.length; i++) {
        const event = events[i]!;
        if (event.data === '[DONE]') {
          finished = true;
          if (batch.length > 0) yield batch;
          return;
        }
        if (template && event.event === undefined) {
          const content = template.match(event.data);
          if (content !== undefined) {
            const item: ScannedChunk = { text: event.data, content, run: undefined };
            if (ends) {
              if (run !== undefined && runLast === i - 1) {
                run.count++;
                run.end = ends[i]!;
              } else {
                run = { bytes: bytes!, start: i === 0 ? 0 : ends[i - 1]!, end: ends[i]!, count: 1 };
                item.run = run;
              }
              runLast = i;
            }
            batch.push(item);
            continue;
          }
        }
        let chunk: ChatCompletionChunk | undefined;
        try {
          chunk = readChunkEvent(provider, event, secrets, fix);
        } catch (error) {
          // The chunks before a bad or error event still reach the client, then the stream fails.
          if (batch.length > 0) yield batch;
          throw error;
        }
        if (!chunk) continue;
        if (chunk.choices?.some((c) => c.finish_reason)) sawFinishReason = true;
        template?.learn(chunk, event.data);
        batch.push({ text: event.data, chunk });
        // The stream's first chunk goes out ahead of the rest of its read (the client's time to first token).
        if (first) {
          first = false;
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    }
    finished = true;
    // Without `[DONE]`, only a stream that reached a finish_reason is complete; anything else was cut short.
    if (!sawFinishReason) throw upstreamInvalidResponseError(provider, 'the stream ended before data: [DONE].');
  } catch (error) {
    if (GatewayError.isInstance(error)) throw error;
    if (StrayStreamTextError.isInstance(error)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(error.text);
      } catch {
        parsed = undefined;
      }
      throw (
        streamError(provider, parsed, secrets) ??
        upstreamInvalidResponseError(provider, 'the stream holds text that is not an event.')
      );
    }
    throw mapTransportError(provider, error, signal);
  } finally {
    if (!finished) body.destroy?.();
  }
}

/**
 * One event of an OpenAI chat stream as a checked chunk (its text remembered when taken as it came), or undefined for
 * an event that is not a chunk (blank data, named events other than `error`, objects of another kind). Throws 502
 * `upstream_invalid_response` for bad JSON or a chunk of the wrong shape, the upstream's error for an error event.
 */
function readChunkEvent(
  provider: string,
  event: ServerSentEvent,
  secrets: readonly (string | undefined)[],
  fix: ((chunk: ChatCompletionChunk) => ChatCompletionChunk) | undefined,
): ChatCompletionChunk | undefined {
  if (event.data.trim() === '') return undefined;
  // Named events other than `error` (e.g. `event: ping`) are not chunks: skipped.
  if (event.event !== undefined && event.event !== 'message' && event.event !== 'error') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.data);
  } catch (error) {
    throw upstreamInvalidResponseError(provider, 'a stream event is not valid JSON.', error);
  }
  const upstreamError = streamError(provider, parsed, secrets);
  if (upstreamError) throw upstreamError;
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
