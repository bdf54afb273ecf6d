import type { PeekedStream } from '../routing/guard-stream.js';
import type { PlanOutcome } from '../routing/execute-plan.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import { encodeSSEData } from '../utils/encode-sse.js';
import { jsonTextOf, rememberJsonText } from '../utils/raw-json-text.js';
import { type ChunkBatch, isScannedRun } from './chunk-batches.js';
import { replaceModelText } from './replace-model-text.js';
import { type SSEBatchEncoder, type SSEPieces, SSETextReader } from './sse-text-reader.js';
import { type StreamSummary, guardedItems, noteChunk } from './wrap-chunk-stream.js';

/** Longest text {@link PassThroughChatStream.sseText} yields at once, characters (as the gateway's SSE writer batches). */
const MAX_TEXT_CHARS = 64 * 1024;

/**
 * An accepted chat stream read one upstream network read at a time (see `BatchedChunkStream`): iterated as chunks by
 * any consumer (front doors), or written as OpenAI SSE text by {@link sseText} without parsing the plain text deltas
 * again (the byte pass-through of OpenAI-family streams).
 */
export interface PassThroughChatStream extends AsyncIterable<ChatCompletionChunk> {
  /**
   * The stream as `text/event-stream` text, about one piece per upstream read (longer reads in pieces of about 64 KiB):
   * each event as the upstream sent it (`data: <its JSON>\n\n`), except chunks with usage when the client did not ask
   * for it (usage removed, a usage-only chunk dropped); then `data: [DONE]\n\n`, or, when the stream fails, one error
   * event (`secrets` redacted from every field; `onError` sees the failure) instead. A run of plain text deltas the
   * scanner found in one read (`ScannedRun`) comes as the upstream's bytes (a `Uint8Array`), everything else as
   * strings. The pieces of a read after its first can be taken at once (`takeReady`). Use it or the chunks, once.
   */
  sseText(onError?: (error: unknown) => void, secrets?: readonly string[]): SSEPieces;
}

/** True when `stream` can be written as SSE text directly ({@link PassThroughChatStream}). */
export function hasSSEText(stream: AsyncIterable<ChatCompletionChunk>): stream is PassThroughChatStream {
  return typeof (stream as Partial<PassThroughChatStream>).sseText === 'function';
}

/**
 * The client's side of a peeked batched stream: every batch read under the attempt's idle timer (`idleGuard`: a stall
 * of `outcome.idleMs` between two reads aborts the attempt, 504), each chunk noted in `summary` as `wrapChunkStream`
 * does (usage, finish reasons, content text when `collectText`, until usage is seen; usage stripped when `stripUsage`). However it ends,
 * the upstream is closed, the attempt released and `onEnd` called once (with what it threw, if it threw). With `model`
 * (the id the client asked for), every chunk names it: parsed chunks as `noteChunk` does, and the plain text deltas,
 * which share the model text of the parsed chunk before them, by replacing that text (only when it differs: an
 * upstream that answers with the requested id keeps the byte pass-through of its runs untouched; otherwise a run's
 * bytes are copied once with the text replaced, never decoded: see `replaceModelText`).
 */
export function passThroughChatStream(
  peeked: PeekedStream<ChunkBatch>,
  outcome: PlanOutcome<unknown>,
  summary: StreamSummary,
  stripUsage: boolean,
  collectText: boolean,
  onEnd: (failure?: unknown) => void | Promise<void>,
  model?: string,
): PassThroughChatStream {
  return new BatchedChatStream(peeked, outcome, summary, stripUsage, collectText, onEnd, model);
}

/** {@link passThroughChatStream}'s stream: one object with its state in fields (no closures per stream). */
class BatchedChatStream implements PassThroughChatStream, SSEBatchEncoder {
  constructor(
    private readonly peeked: PeekedStream<ChunkBatch>,
    private readonly outcome: PlanOutcome<unknown>,
    private readonly summary: StreamSummary,
    private readonly stripUsage: boolean,
    private readonly collectText: boolean,
    private readonly onEnd: (failure?: unknown) => void | Promise<void>,
    private readonly model?: string,
  ) {}

  // Once a parsed chunk named another model: its `"model":"<id>"` text, and what replaces it in plain deltas.
  #upstreamModelText: string | undefined = undefined;
  #modelText = '';
  #modelBytes: { upstream: Buffer; requested: Buffer } | undefined = undefined;

  /** Reads every batch under the idle timer; settles the stream however it ends. */
  #read(): AsyncGenerator<ChunkBatch> {
    return guardedItems(this.peeked, this.outcome, this.summary, sameBatch, this.onEnd);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ChatCompletionChunk> {
    for await (const batch of this.#read()) {
      for (const item of batch) {
        const count = isScannedRun(item) ? item.count : 1;
        for (let k = 0; k < count; k++) {
          const chunk = isScannedRun(item) ? plainChunk(item.textAt(k)) : (item.chunk ?? plainChunk(item.text));
          const out = noteChunk(chunk, this.summary, this.stripUsage, this.collectText, this.model);
          if (out) yield out;
        }
      }
    }
  }

  sseText(onError?: (error: unknown) => void, secrets: readonly string[] = []): SSEPieces {
    // The idle guard and the settlement of `guardedItems`, inline, in a hand-written iterator (see SSETextReader): no
    // generator between the upstream's scan and the writer.
    return new SSETextReader(this.peeked, this.outcome, this.summary, this, this.onEnd, onError, secrets);
  }

  /**
   * One batch as SSE text: runs of plain deltas as the upstream's bytes (the model text replaced when it differs),
   * everything else as strings of at most about {@link MAX_TEXT_CHARS} characters, each chunk noted in the summary.
   */
  encodeBatch(batch: ChunkBatch): (string | Uint8Array)[] {
    const pieces: (string | Uint8Array)[] = [];
    let text = '';
    for (let i = 0; i < batch.length; i++) {
      const item = batch[i]!;
      if (isScannedRun(item)) {
        if (text !== '') pieces.push(text);
        text = '';
        const bytes =
          item.start === 0 && item.end === item.bytes.length ? item.bytes : item.bytes.subarray(item.start, item.end);
        const modelBytes = this.#modelBytes;
        pieces.push(
          modelBytes === undefined ? bytes : replaceModelText(bytes, modelBytes.upstream, modelBytes.requested),
        );
        continue;
      }
      if (item.chunk === undefined) {
        const upstreamModelText = this.#upstreamModelText;
        text += `data: ${upstreamModelText === undefined ? item.text : item.text.replace(upstreamModelText, this.#modelText)}\n\n`;
      } else text += this.#encodeParsed(item.chunk, item.text);
      // A long read goes out in pieces, so that back-pressure applies to what the client fails to read.
      if (text.length >= MAX_TEXT_CHARS) {
        pieces.push(text);
        text = '';
      }
    }
    if (text !== '') pieces.push(text);
    if (this.collectText) this.#collectText(batch);
    return pieces;
  }

  /**
   * A parsed chunk (`text`, its JSON as the upstream sent it) as one SSE event, noted in the summary. When it names
   * another model than the requested one, its `"model":"<id>"` text is replaced in the upstream's text, as in plain
   * deltas, instead of serialising the chunk again (and the upstream's id is not kept for it: see `presentModel`), as
   * long as the text is the chunk's own (`jsonTextOf`: no preset fixed it) and holds `"model"` once (so that it is the
   * chunk's member, not a nested one or a value); otherwise the chunk is made to name it and serialised.
   */
  #encodeParsed(chunk: ChatCompletionChunk, text: string): string {
    const model = this.model;
    if (model === undefined || chunk.model === model) {
      const out = noteChunk(chunk, this.summary, this.stripUsage, false, model);
      return out ? encodeSSEData(out) : '';
    }
    if (this.#upstreamModelText === undefined) {
      const upstreamModelText = MODEL_FIELD.exec(text)?.[0];
      this.#upstreamModelText = upstreamModelText;
      this.#modelText = `"model":${JSON.stringify(model)}`;
      if (upstreamModelText !== undefined)
        this.#modelBytes = { upstream: Buffer.from(upstreamModelText), requested: Buffer.from(this.#modelText) };
    }
    const upstreamModelText = this.#upstreamModelText;
    const at = upstreamModelText === undefined || jsonTextOf(chunk) !== text ? -1 : text.indexOf(MODEL_KEY);
    if (at === -1 || !text.startsWith(upstreamModelText!, at) || text.indexOf(MODEL_KEY, at + 1) !== -1) {
      const out = noteChunk(chunk, this.summary, this.stripUsage, false, model);
      return out ? encodeSSEData(out) : '';
    }
    const out = noteChunk(chunk, this.summary, this.stripUsage, false, undefined);
    if (out === chunk)
      return `data: ${text.slice(0, at)}${this.#modelText}${text.slice(at + upstreamModelText!.length)}\n\n`;
    if (!out) return '';
    // Usage stripped: a copy, which names the requested model.
    out.model = model;
    return encodeSSEData(out);
  }

  /**
   * Appends the content of the batch's chunks to `summary.text`, in order, only while no usage has been seen: the text
   * counts tokens for a stream that ends without usage, and usage, once seen, stays. The plain deltas' content is then
   * never decoded when usage came in the same read (the whole answer at once) or before; the text collected so far is
   * let go of.
   */
  #collectText(batch: ChunkBatch): void {
    const summary = this.summary;
    if (summary.usage !== undefined) {
      summary.text = undefined;
      return;
    }
    let text = summary.text ?? '';
    for (const item of batch) {
      if (isScannedRun(item)) for (let k = 0; k < item.count; k++) text += item.contentAt(k);
      else if (item.chunk === undefined) text += item.content ?? '';
      else for (const choice of item.chunk.choices) if (choice.delta?.content) text += choice.delta.content;
    }
    summary.text = text;
  }
}

/**
 * The first `"model": "<id>"` member of a chunk's JSON text. A chunk's text cannot hold `"model"` followed by `:`
 * inside a string (its quotes would be escaped), and a plain text delta has no nested object with a `model` member.
 */
const MODEL_FIELD = /"model"\s*:\s*"(?:[^"\\]|\\.)*"/;
/** The `model` key as JSON text (also found as a string value: `"role":"model"`). */
const MODEL_KEY = '"model"';

const sameBatch = (batch: ChunkBatch): ChunkBatch => batch;

/** A plain text delta's `text` as a chunk (parsed only for a consumer that iterates chunks), its text remembered. */
function plainChunk(text: string): ChatCompletionChunk {
  const chunk = JSON.parse(text) as ChatCompletionChunk;
  rememberJsonText(chunk, text);
  return chunk;
}
