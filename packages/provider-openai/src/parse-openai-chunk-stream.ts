import {
  type ChatCompletionChunk,
  type ChunkBatch,
  type SSEBatch,
  type ScannedChunk,
  type ServerSentEvent,
  GatewayError,
  SSEBatchReader,
  StrayStreamTextError,
  checkChatCompletionChunk,
  describeIssue,
  mapTransportError,
  redactSecrets,
  rememberJsonText,
  upstreamErrorCode,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { ChunkTemplate } from './chunk-template.js';
import { PlainRun } from './plain-run.js';
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
    // Without `passPlain`, every item is a parsed chunk.
    for (const item of batch) yield (item as ScannedChunk).chunk!;
  }
}

/**
 * {@link parseOpenAIChunkStream} one network read at a time, as core's `ChunkBatch`es (same events skipped, same
 * errors, same end). With `passPlain`, the plain text deltas that repeat the stream's last checked text delta but for
 * their content (see {@link ChunkTemplate}) are not parsed: they come as their text and decoded content only, for the
 * gateway's byte pass-through; every other event is parsed and checked as in {@link parseOpenAIChunkStream}. A plain
 * read (core's `SSEBatch` with bytes) is scanned on its bytes, undecoded: the plain deltas that follow one another in
 * it come as one item, a {@link PlainRun} of the read's bytes (no object per delta; their text and content decoded
 * only when asked for), its other events decoded one by one.
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
    // One generator step per network read, not per event (a read often holds dozens of chunks). A plain read comes
    // undecoded (`plainAsBytes`) when plain deltas are looked for: they are then matched on its bytes.
    // Read in this loop, without a generator in between (one frame and one step per read fewer).
    const reads = new SSEBatchReader(body, { drainOnReturn: true, plainAsBytes: template !== undefined });
    // A suspended generator keeps the values of all its registers: the locals of a read live out here and are
    // cleared, with the read itself, before the next read is awaited (a held stream keeps none of its last read).
    let event: ServerSentEvent | undefined;
    let item: ScannedChunk | undefined;
    let read: ServerSentEvent | undefined;
    let chunk: ChatCompletionChunk | undefined;
    let batch: ChunkBatch = [];
    // The run of plain deltas the last event joined, and that event's index in the read.
    let run: PlainRun | undefined;
    let last = -2;
    let events: ServerSentEvent[] = NO_EVENTS;
    let bytes: Uint8Array | undefined;
    let ends: number[] | undefined;
    let sse: SSEBatch | undefined;
    try {
      while ((sse = await reads.next()) !== undefined) {
        ({ events, bytes, ends } = sse);
        const inBytes = events.length === 0 && ends !== undefined;
        const count = inBytes ? ends!.length : events.length;
        batch = [];
        for (let i = 0; i < count; i++) {
          const start = inBytes ? (ends![i - 1] ?? 0) + DATA_FIELD_BYTES : 0;
          const end = inBytes ? ends![i]! - 2 : 0;
          event = inBytes ? undefined : events[i]!;
          if (event ? event.data === '[DONE]' : isDone(bytes!, start, end)) {
            finished = true;
            if (batch.length > 0) yield batch;
            return;
          }
          if (!event && template?.matchBytes(bytes!, start, end)) {
            // A plain delta joins the run of the one just before it, or starts a run.
            if (run !== undefined && last === i - 1) {
              run.count++;
              run.end = ends![i]!;
            } else batch.push((run = new PlainRun(bytes!, ends!, i, template.prefixBytes)));
            last = i;
            continue;
          }
          item = template && event && event.event === undefined ? textDelta(template, event.data) : undefined;
          if (item) {
            batch.push(item);
            continue;
          }
          read = event ?? { id: undefined, event: undefined, data: utf8(bytes!, start, end) };
          chunk = undefined;
          try {
            chunk = readChunkEvent(provider, read, secrets, fix);
          } catch (error) {
            // The chunks before a bad or error event still reach the client, then the stream fails.
            if (batch.length > 0) yield batch;
            throw error;
          }
          if (!chunk) continue;
          if (chunk.choices?.some((c) => c.finish_reason)) sawFinishReason = true;
          template?.learn(chunk, read.data);
          batch.push({ text: read.data, chunk });
          // The stream's first chunk goes out ahead of the rest of its read (the client's time to first token).
          if (first) {
            first = false;
            yield batch;
            batch = [];
          }
        }
        if (batch.length > 0) yield batch;
        batch = [];
        run = event = item = read = chunk = bytes = ends = undefined;
        last = -2;
        events = NO_EVENTS;
        // The read is this generator's now: emptied, it holds no text or bytes while the next one is awaited.
        sse.events = NO_EVENTS;
        if (sse.bytes !== undefined) sse.bytes = sse.ends = undefined;
      }
    } finally {
      // However the loop ends (as `for await` calls `return()`): an early stop at `[DONE]` drains the rest.
      await reads.close();
    }
    finished = true;
    // Without `[DONE]`, only a stream that reached a finish_reason is complete; anything else was cut short.
    if (!sawFinishReason) throw upstreamInvalidResponseError(provider, 'the stream ended before data: [DONE].');
  } catch (error) {
    throw scanError(provider, error, signal, secrets);
  } finally {
    if (!finished) body.destroy?.();
  }
}

/** The events of a read once it has been scanned. */
const NO_EVENTS: ServerSentEvent[] = [];

/** Length of `data: `, bytes. */
const DATA_FIELD_BYTES = 6;
/** `[DONE]`, byte by byte. */
const DONE = [91, 68, 79, 78, 69, 93];

/** True when `bytes[start, end)`, an event's data, is `[DONE]`. */
function isDone(bytes: Uint8Array, start: number, end: number): boolean {
  if (end - start !== DONE.length) return false;
  for (let i = 0; i < DONE.length; i++) if (bytes[start + i] !== DONE[i]) return false;
  return true;
}

/** `bytes[start, end)` decoded as UTF-8. */
function utf8(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8', start, end);
}

/** The plain text delta `data` is, as a scanned chunk (see {@link ChunkTemplate.match}), else undefined. */
function textDelta(template: ChunkTemplate, data: string): ScannedChunk | undefined {
  const content = template.match(data);
  return content === undefined ? undefined : { text: data, content };
}

/**
 * What a chat stream's scan throws for `error`: a GatewayError as it is; stray text (not SSE) mapped like an error
 * event when it is an `{"error":{...}}` body, else 502 `upstream_invalid_response`; a transport error mapped (502/504,
 * or the abort reason).
 */
function scanError(
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
