import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { NativeMessagesResult, NativeSSEEvent } from '../adapter/native-messages.js';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import { GatewayError } from '../errors/gateway-error.js';
import { upstreamErrorMeaning } from '../errors/upstream-error-meaning.js';
import type { PlanOutcome } from '../routing/execute-plan.js';
import { type PeekedStream, guardStream, peekStream } from '../routing/guard-stream.js';
import type { CompletionUsage } from '../schemas/completion-usage.js';
import { mapTransportError } from '../utils/upstream-request.js';
import type { Metered } from './call-metering.js';
import { toCallResult } from './call-result.js';
import type { CallRunner } from './call-runner.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import type { RouteTarget } from '../model/route-plan.js';
import { settleStream } from './settle-stream.js';
import { presentMessagesModel, presentModel } from './present-model.js';

/** The adapter methods that pass a front door's own request through unchanged. */
export type PassThroughOperation = 'anthropicMessages' | 'openaiResponses';

/** What one pass-through attempt resolved with: the JSON answer, or the accepted (first event read) event stream. */
export type PassThroughValue =
  | { json: unknown; usage?: CompletionUsage }
  | {
      peeked: PeekedStream<NativeSSEEvent>;
      usage?: () => CompletionUsage | undefined;
      error?: () => GatewayError | undefined;
    };

/**
 * One attempt of a pass-through on `target`: the body with `model` replaced by the upstream id, sent through the
 * adapter's `operation`; the answer names the model the client asked for (`body.model`: a JSON answer's `model`, an
 * Anthropic stream's `message_start.message.model`; the Responses front door presents its own events); a stream counts as accepted once its first event has arrived (so that a failure before it can
 * still be retried or fall back). A transport failure of the stream (reset, stall) becomes the gateway's 502/504, so
 * that one before the first event is retried like any other. Throws what the adapter throws.
 */
export async function runPassThrough(
  operation: PassThroughOperation,
  body: Record<string, unknown>,
  adapter: ProviderAdapter,
  target: RouteTarget,
  context: AdapterCallContext,
): Promise<PassThroughValue> {
  const result = await adapter[operation]!({ ...body, model: target.upstreamModel }, context);
  const model = body.model as string;
  if (!('events' in result)) return { ...result, json: presentModel(result.json, model) };
  const events = operation === 'anthropicMessages' ? presentMessagesModel(result.events, model) : result.events;
  return {
    peeked: await peekStream(mapStreamFailures(events, target.provider, context.signal)),
    usage: result.usage,
    error: result.error,
  };
}

/** `events`, with a failure that is not already a GatewayError mapped by `mapTransportError` (and its meaning). */
async function* mapStreamFailures(
  events: AsyncIterable<NativeSSEEvent>,
  provider: string,
  signal: AbortSignal,
): AsyncGenerator<NativeSSEEvent> {
  try {
    yield* events;
  } catch (error) {
    throw upstreamErrorMeaning(
      provider,
      GatewayError.isInstance(error) ? error : mapTransportError(provider, error, signal),
    );
  }
}

/**
 * The call result of a pass-through: JSON answers are released and settled at once (usage from the adapter); streams
 * are guarded like chat streams (idle timeout, release at the end) and settled when they end, booked with the usage
 * the adapter read from the events, and as a failure (its status) when the upstream reported one inside the stream (the
 * adapter's `error`); `finished` resolves then.
 */
export function passThroughResult(
  model: string,
  outcome: PlanOutcome<PassThroughValue>,
  warnings: GatewayWarning[],
  metered: Metered | undefined,
  signal: AbortSignal | undefined,
): GatewayCallResult<NativeMessagesResult> {
  const value = outcome.value;
  if ('peeked' in value) {
    const ttfbMs = metered && performance.now() - metered.startedAt;
    const readUsage = value.usage;
    const readError = value.error;
    let completed = false;
    const guarded = (async function* () {
      yield* guardStream(value.peeked, outcome);
      completed = true;
    })();
    const summary = () => {
      const error = readError?.();
      return { usage: readUsage?.(), completed: completed && error === undefined, ...(error && { error }) };
    };
    const { stream, finished } = settleStream(guarded, { metered, target: outcome.target, signal, ttfbMs, summary });
    return { ...toCallResult(model, outcome, warnings, { events: stream }, metered), finished };
  }
  outcome.release();
  return toCallResult(model, outcome, warnings, value, metered);
}

/**
 * One pass-through call of `operation` (`body` validated by the front door), routed like any call (retries; fallbacks
 * among models whose deployments pass through too); streams as in {@link passThroughResult}. A stream's first-byte
 * timer runs until its first event (peeked by {@link runPassThrough}), JSON's until its headers. Throws 404 for an
 * unknown model, the accounting's 401/403/429, upstream errors.
 */
export function passThroughCall(
  runner: CallRunner,
  operation: PassThroughOperation,
  body: Record<string, unknown> & { model: string },
  options: GatewayCallOptions,
): Promise<GatewayCallResult<NativeMessagesResult>> {
  return runner.booked(body, options, async (booked) => {
    const { outcome, warnings, metered } = await runner.call<PassThroughValue>(
      operation,
      body,
      booked,
      (adapter, target, context) => runPassThrough(operation, body, adapter, target, context),
      body.stream !== true,
    );
    return passThroughResult(body.model, outcome, warnings, metered, booked.signal);
  });
}
