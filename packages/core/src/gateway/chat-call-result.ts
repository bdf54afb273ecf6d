import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { CacheLookup } from './cached-calls.js';
import type { PlanOutcome } from '../routing/execute-plan.js';
import { guardStream, type PeekedStream } from '../routing/guard-stream.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import type { ChatCompletionRequest } from '../schemas/chat-completion-request.js';
import type { ChatCompletion } from '../schemas/chat-completion.js';
import type { Metered } from './call-metering.js';
import { toCallResult } from './call-result.js';
import { type ChatCompletionResult, isPeekedStream } from './chat-completion-result.js';
import type { ChunkBatch } from './chunk-batches.js';
import type { GatewayCallResult } from './gateway-options.js';
import type { RouteTarget } from '../model/route-plan.js';
import { normalizeUsageOf } from './normalize-usage.js';
import { passThroughChatStream } from './pass-through-chat-stream.js';
import { presentModel } from './present-model.js';
import { streamSettler } from './settle-stream.js';
import { chatStreamChunks } from './stream-failover.js';
import { type StreamSummary, wrapChunkStream, wrapGuardedChunkStream } from './wrap-chunk-stream.js';

/** The first batch of an adapter's batched chat stream, peeked (see `BatchedChunkStream`), marked `batched`. */
export type PeekedBatches = PeekedStream<ChunkBatch> & { batched?: true };

const isPeekedBatches = (value: unknown): value is PeekedBatches => (value as PeekedBatches).batched === true;

/** What {@link chatCallResult} assembles a chat call's result from: the routed outcome and how it was asked. */
export interface ChatCallParts {
  /** The validated request, `model` being the id the client sent. */
  request: ChatCompletionRequest;
  /** The plan's outcome: a completion, a peeked chunk stream, or peeked batches (byte pass-through). */
  outcome: PlanOutcome<ChatCompletion | PeekedStream<ChatCompletionChunk> | PeekedBatches>;
  /** Warnings of the attempt that answered (`x-switchyard-warning`). */
  warnings: GatewayWarning[];
  /** Metering of a call with accounting (admission ticket, attempts, start time in ms). */
  metered?: Metered;
  /** Runs the rest of the plan without the deployments in `exclude` (mid-stream failover). */
  resume: (exclude: ReadonlySet<string>) => Promise<PlanOutcome<unknown>>;
  /** The client's abort signal. */
  signal?: AbortSignal;
  /** The response cache's lookup of this call (records a stream, stores an answer). */
  cache: CacheLookup;
  /** `stream_failover` is on for the model of a streamed call. */
  failover: boolean;
  /** Sets the messages the next attempt sends (a continuation after a mid-stream failure). */
  continueWith: (messages: (target: RouteTarget) => ChatCompletionRequest['messages']) => void;
}

/**
 * The gateway's result of a routed chat call: for a completion, the answer with its usage normalised (stored in the
 * response cache when it records); for a stream, the chunks the client gets (the byte pass-through of batches, or the
 * parsed chunks through the idle guard, the usage wrapper, the cache's recorder and mid-stream failover when those
 * apply), with `finished` resolving once the stream is settled (metered, released). The answer and every chunk name
 * the model the client asked for (`request.model`; the upstream's id is the result's `upstreamModel`).
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function chatCallResult(parts: ChatCallParts): GatewayCallResult<ChatCompletionResult> {
  const { request, outcome, warnings, metered, cache, signal } = parts;
  const value = outcome.value;
  const stripUsage = request.stream_options?.include_usage !== true;
  if (isPeekedBatches(value)) {
    const summary: StreamSummary = {};
    const ttfbMs = metered && performance.now() - metered.startedAt;
    const { settle, finished } = streamSettler({
      metered,
      target: outcome.target,
      signal,
      ttfbMs,
      summary: () => summary,
    });
    const stream = passThroughChatStream(
      value,
      outcome,
      summary,
      stripUsage,
      metered !== undefined,
      settle,
      request.model,
    );
    return cache.answered({ ...toCallResult(request.model, outcome, warnings, stream, metered), finished });
  }
  if (isPeekedStream(value as ChatCompletion | PeekedStream<ChatCompletionChunk>)) {
    const summary: StreamSummary = {};
    const ttfbMs = metered && performance.now() - metered.startedAt;
    const resumeChat = (
      exclude: ReadonlySet<string>,
      messages: (target: RouteTarget) => ChatCompletionRequest['messages'],
    ) => {
      parts.continueWith(messages);
      return parts.resume(exclude) as Promise<PlanOutcome<PeekedStream<ChatCompletionChunk>>>;
    };
    const first = outcome as PlanOutcome<PeekedStream<ChatCompletionChunk>>;
    const failing = parts.failover
      ? chatStreamChunks(true, { request, first, resume: resumeChat, metered, signal }, summary)
      : undefined;
    const { settle, finished } = streamSettler({
      metered,
      target: outcome.target,
      signal,
      ttfbMs,
      summary: () => summary,
      ...failing?.settlement,
    });
    // Without the cache's recorder or stream failover between them, the idle guard and the usage wrapper run as one generator.
    const stream =
      cache.records || failing
        ? wrapChunkStream(
            cache.record(failing?.chunks ?? guardStream(first.value, outcome), outcome.target, warnings),
            summary,
            stripUsage,
            metered !== undefined,
            settle,
            request.model,
          )
        : wrapGuardedChunkStream(
            first.value,
            outcome,
            summary,
            stripUsage,
            metered !== undefined,
            settle,
            request.model,
          );
    return cache.answered({ ...toCallResult(request.model, outcome, warnings, stream, metered), finished });
  }
  outcome.release();
  const completion = presentModel(value as ChatCompletion, request.model);
  normalizeUsageOf(completion);
  return cache.answered(toCallResult(request.model, outcome, warnings, completion, metered), 'completion');
}
