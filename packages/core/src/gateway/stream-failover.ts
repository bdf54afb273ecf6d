import { GatewayError } from '../errors/gateway-error.js';
import { type PlanOutcome, attemptRecordsOf } from '../routing/execute-plan.js';
import { type PeekedStream, guardStream } from '../routing/guard-stream.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import type { ChatCompletionRequest } from '../schemas/chat-completion-request.js';
import type { CompletionUsage } from '../schemas/completion-usage.js';
import type { Metered } from './call-metering.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
import type { StreamSettlement } from './settle-stream.js';
import type { StreamSummary } from './wrap-chunk-stream.js';

/**
 * The user message that asks an OpenAI-family (or any non-Anthropic) deployment to continue a broken answer. It follows
 * the conversation and an assistant message holding the text the client already received.
 */
export const CONTINUATION_INSTRUCTION =
  'Your previous answer was cut off. Continue it exactly where it stopped: output only the remaining text, without repeating anything already written and without any preamble.';

/** Adapters whose upstream continues a trailing assistant message itself (Anthropic's assistant prefill). */
const PREFILL_ADAPTERS = new Set(['anthropic']);

/**
 * The messages of a continuation request on `target`: the conversation plus the `delivered` text as an assistant
 * message. Anthropic (assistant prefill, https://docs.anthropic.com/en/docs/build-with-claude/prompt-engineering/prefill-claudes-response)
 * continues it directly (trailing whitespace removed, which the API rejects); every other adapter also gets
 * {@link CONTINUATION_INSTRUCTION} as a final user message.
 */
export function continuationMessages(
  messages: ChatCompletionRequest['messages'],
  delivered: string,
  target: RouteTarget,
): ChatCompletionRequest['messages'] {
  if (PREFILL_ADAPTERS.has(target.adapter.adapter))
    return [...messages, { role: 'assistant', content: delivered.trimEnd() }];
  return [...messages, { role: 'assistant', content: delivered }, { role: 'user', content: CONTINUATION_INSTRUCTION }];
}

/**
 * `plan` without the deployments whose keys are in `exclude` (models left without any dropped), for a continuation.
 * Throws 503 `no_available_target` when nothing is left.
 */
export function planWithout(plan: RoutePlan, exclude: ReadonlySet<string>): RoutePlan {
  const models = plan.models
    .map((m) => ({ ...m, targets: m.targets.filter((t) => !exclude.has(t.key)) }))
    .filter((m) => m.targets.length > 0);
  if (models.length > 0) return { ...plan, models };
  throw new GatewayError({
    status: 503,
    type: 'server_error',
    code: 'no_available_target',
    message: `No other deployment of '${plan.model}' can continue the stream.`,
  });
}

/** What the final usage chunk of a stream that failed over carries as `switchyard`, next to the summed `usage`. */
export interface StreamFailoverNote {
  stream_failover: true;
  /** How many times the stream moved to another deployment. */
  failovers: number;
  /** True when a broken attempt reported no usage and its tokens are estimated (characters / 4). */
  usage_estimated: boolean;
}

/** Where the continuation of a broken stream comes from, and what the failover tells accounting. */
export interface StreamFailoverOptions {
  request: ChatCompletionRequest;
  /** The plan outcome whose stream the client is reading. */
  first: PlanOutcome<PeekedStream<ChatCompletionChunk>>;
  /**
   * Runs the rest of the plan (deployment keys in `exclude` left out) with `messages(target)` as the conversation,
   * within what remains of the call's deadline; resolves once a continuation stream has its first chunk.
   */
  resume(
    exclude: ReadonlySet<string>,
    messages: (target: RouteTarget) => ChatCompletionRequest['messages'],
  ): Promise<PlanOutcome<PeekedStream<ChatCompletionChunk>>>;
  metered?: Metered;
  /** The client's signal: no failover once the client left. */
  signal?: AbortSignal;
}

/** Live state of a failover stream, read by the settlement when it ends. */
export interface StreamFailoverState {
  /** The deployment serving the stream now. */
  target: RouteTarget;
  failovers: number;
  /** Usage reported by the attempt serving now (tokens), for accounting; earlier attempts are on their reports. */
  lastUsage?: CompletionUsage;
}

/** A broken attempt of a failover stream: the usage it reported (if any) and how much text it delivered. */
interface BrokenAttempt {
  usage?: CompletionUsage;
  deliveredChars: number;
}

/** `a + b` in tokens (`b`'s other fields kept). */
const addUsage = (a: CompletionUsage, b: CompletionUsage): CompletionUsage => ({
  ...b,
  prompt_tokens: a.prompt_tokens + b.prompt_tokens,
  completion_tokens: a.completion_tokens + b.completion_tokens,
  total_tokens: a.prompt_tokens + b.prompt_tokens + a.completion_tokens + b.completion_tokens,
});

/**
 * Mid-stream failover (`stream_failover: true`): yields the first attempt's chunks (guarded like any stream); when it
 * breaks after its first chunk (connection reset, stall past `idle_ms`, an error event), asks `resume` for a
 * continuation on the next deployment with the already delivered text as an assistant prefix (see
 * {@link continuationMessages}), and splices it into the same stream: the continuation's chunks take the first
 * stream's `id` and `created`, its role-only opening is dropped, and a leading space is dropped when the delivered text
 * already ends with one, so the client sees one stream with no repeated or lost text, one `finish_reason` and one end.
 * The final usage chunk carries the sum of every attempt's usage (a broken attempt's, when it reported none, estimated:
 * completion = delivered characters / 4, prompt = the continuation's prompt minus that) and a `switchyard`
 * {@link StreamFailoverNote}. No failover when tool-call deltas were streamed, a `finish_reason` was already sent,
 * `n` > 1, the client left, or no deployment is left: the stream then throws as without failover (an error event).
 */
export async function* failoverStream(
  options: StreamFailoverOptions,
  state: StreamFailoverState,
): AsyncGenerator<ChatCompletionChunk> {
  const { request, metered, signal } = options;
  let outcome = options.first;
  const exclude = new Set([outcome.target.key]);
  let delivered = '';
  let toolCalls = false;
  let finished = false;
  let head: { id: string; created: number } | undefined;
  // Usage of the broken attempts: reported, or only the delivered text's length (estimated once the last usage is in).
  const broken: BrokenAttempt[] = [];
  let attemptStart = 0;
  let trimLeadingSpace = false;
  for (;;) {
    let reported: CompletionUsage | undefined;
    try {
      for await (const original of guardStream(outcome.value, outcome, false)) {
        let chunk = original;
        head ??= { id: chunk.id, created: chunk.created };
        if (state.failovers > 0) chunk = splice(chunk, head, trimLeadingSpace && delivered.length > 0);
        if (chunk.usage) reported = chunk.usage;
        for (const choice of chunk.choices) {
          if (choice.delta?.tool_calls?.length) toolCalls = true;
          if (choice.finish_reason) finished = true;
          if (choice.delta?.content) {
            trimLeadingSpace = false;
            delivered += choice.delta.content;
          }
        }
        if (state.failovers > 0 && chunk.usage) {
          const note: StreamFailoverNote = {
            stream_failover: true,
            failovers: state.failovers,
            usage_estimated: broken.some((b) => b.usage === undefined),
          };
          chunk = { ...chunk, usage: sumUsage(broken, chunk.usage), switchyard: note };
        }
        if (state.failovers > 0 && chunk.choices.length === 0 && !chunk.usage) continue;
        yield chunk;
      }
      state.lastUsage = reported;
      return;
    } catch (error) {
      // The broken attempt is reported to observers here: `fallback` once another deployment was tried, else `error`.
      if (toolCalls || finished || (request.n ?? 1) > 1 || signal?.aborted) {
        outcome.ended('error', error);
        throw error;
      }
      // What the broken attempt cost: its reported usage, else an estimate from the text it delivered.
      const report = metered?.attempts.findLast((a) => a.target === outcome.target && a.status === 200);
      if (report) {
        if (reported) report.usage = reported;
        else report.completionText = delivered;
      }
      const deliveredNow = delivered;
      let next: PlanOutcome<PeekedStream<ChatCompletionChunk>>;
      try {
        next = await options.resume(exclude, (target) => continuationMessages(request.messages, deliveredNow, target));
      } catch (resumeError) {
        outcome.ended((attemptRecordsOf(resumeError)?.length ?? 0) > 0 ? 'fallback' : 'error', error);
        throw error;
      }
      outcome.ended('fallback', error);
      broken.push({ usage: reported, deliveredChars: deliveredNow.length - attemptStart });
      attemptStart = deliveredNow.length;
      outcome = next;
      exclude.add(next.target.key);
      state.target = next.target;
      state.failovers++;
      trimLeadingSpace = /\s$/.test(delivered);
    }
  }
}

/**
 * The usage of every attempt: `last` (the attempt that finished) plus each broken one's, reported or estimated. The
 * estimate of a broken attempt: completion = its delivered characters / 4 (rounded up); prompt = `last`'s prompt minus
 * that (a continuation's prompt holds the delivered text, which the broken attempt's prompt did not).
 */
function sumUsage(broken: readonly BrokenAttempt[], last: CompletionUsage): CompletionUsage {
  let total = last;
  for (const part of broken) {
    if (part.usage) {
      total = addUsage(part.usage, total);
      continue;
    }
    const completion = Math.ceil(part.deliveredChars / 4);
    total = addUsage(
      { prompt_tokens: Math.max(0, last.prompt_tokens - completion), completion_tokens: completion, total_tokens: 0 },
      total,
    );
  }
  return total;
}

/** Rewrites a continuation chunk to belong to the first stream (`id`, `created`), without the role-only opening. */
function splice(
  chunk: ChatCompletionChunk,
  head: { id: string; created: number },
  trimLeadingSpace: boolean,
): ChatCompletionChunk {
  const choices = chunk.choices
    .map((choice) => {
      const { role: _role, ...delta } = choice.delta ?? {};
      if (trimLeadingSpace && typeof delta.content === 'string') delta.content = delta.content.replace(/^\s+/, '');
      return { ...choice, delta };
    })
    .filter(
      (choice) =>
        choice.finish_reason || Object.values(choice.delta).some((v) => v !== undefined && v !== null && v !== ''),
    );
  return { ...chunk, id: head.id, created: head.created, choices };
}

/**
 * The chunks of an accepted chat stream as the client reads them: guarded ({@link guardStream}), and with
 * {@link failoverStream} when `enabled` (the requested model's `stream_failover`). `settlement` holds what
 * `settleStream` needs to book it: the deployment that served the end, whether it failed over, and the summary with
 * the last attempt's own usage (the broken attempts' are on their attempt reports).
 */
export function chatStreamChunks(
  enabled: boolean,
  options: StreamFailoverOptions,
  summary: StreamSummary,
): {
  chunks: AsyncIterable<ChatCompletionChunk>;
  settlement: Pick<StreamSettlement, 'target' | 'failedOver' | 'summary'>;
} {
  const state: StreamFailoverState = { target: options.first.target, failovers: 0 };
  return {
    chunks: enabled ? failoverStream(options, state) : guardStream(options.first.value, options.first),
    settlement: {
      target: () => state.target,
      failedOver: () => state.failovers > 0,
      summary: () => (state.failovers > 0 ? { ...summary, usage: state.lastUsage } : summary),
    },
  };
}
