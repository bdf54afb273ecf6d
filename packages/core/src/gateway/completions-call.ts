import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import { invalidRequestError } from '../errors/common-errors.js';
import { type PeekedStream, peekStream } from '../routing/guard-stream.js';
import { type TextCompletionRequest, textCompletionRequestSchema } from '../schemas/text-completion-request.js';
import type { TextCompletion, TextCompletionResult } from '../schemas/text-completion.js';
import { toCallResult } from './call-result.js';
import type { CallRunner } from './call-runner.js';
import {
  chatRequestOf,
  completionChunksOfChat,
  completionOfChat,
  translatablePrompts,
} from './completion-from-chat.js';
import type { GatewayCallOptions, GatewayCallResult, ProviderSettings } from './gateway-options.js';
import type { RouteTarget } from '../model/route-plan.js';
import { normalizeUsageOf } from './normalize-usage.js';
import { presentModel } from './present-model.js';
import { streamSettler } from './settle-stream.js';
import { type StreamSummary, guardedItems } from './wrap-chunk-stream.js';
import { validateRequest } from './validate-request.js';

/** What a legacy completions call needs of the gateway: its call pipeline and the per-provider settings (`streamUsage`). */
export interface CompletionsCallDeps {
  runner: CallRunner;
  providerSettings: Readonly<Record<string, ProviderSettings>>;
}

type CompletionAttemptValue = TextCompletion | PeekedStream<TextCompletion>;

const isStream = <T>(value: T | AsyncIterable<unknown>): value is AsyncIterable<unknown> =>
  typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function';
const isPeeked = (value: CompletionAttemptValue): value is PeekedStream<TextCompletion> =>
  typeof (value as PeekedStream<TextCompletion>).iterator?.next === 'function';

/**
 * `POST /v1/completions` (legacy text completions), through the same keys, limits, routing, metering and ledger as chat
 * (operation `completions`). A deployment whose adapter has `completions` gets the body as it is (`model` its upstream
 * id); any other deployment with `chatCompletions` gets it translated through chat (each prompt one user message, see
 * `chatRequestOf`; the answer mapped back to `text_completion`), refusing with a 400 naming them the parameters chat
 * cannot honour (`echo`, `logprobs`, `suffix`, `best_of` > 1, token-id prompts; see `untranslatableParameters`).
 * Resolves with the completion, or its chunks when `stream: true` (usage asked of the upstream for metering and
 * stripped again unless `stream_options.include_usage`). Throws 400 (validation naming the field, `stream_options`
 * without `stream`, `best_of` > 1 with `stream`), 404 `model_not_found`, 400 `unsupported_operation` (no deployment
 * with either method), upstream errors as `GatewayError`.
 * @see https://platform.openai.com/docs/api-reference/completions/create
 */
export function completionsCall(
  deps: CompletionsCallDeps,
  body: unknown,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<TextCompletionResult>> {
  return deps.runner.booked(body, options, async (booked) => {
    const request = validateRequest(textCompletionRequestSchema, body);
    if (request.stream !== true && request.stream_options != null) {
      throw invalidRequestError("'stream_options' is only allowed when 'stream' is true.", 'stream_options');
    }
    if (request.stream === true && request.best_of != null && request.best_of > 1) {
      throw invalidRequestError(
        "'best_of' results cannot be streamed: set 'stream' to false or 'best_of' to 1.",
        'best_of',
      );
    }
    const { outcome, warnings, metered } = await deps.runner.call<CompletionAttemptValue>(
      'completions',
      request,
      booked,
      (adapter, target, context) => completionAttempt(deps, request, adapter, target, context),
      // A stream's first-byte timer runs until its first chunk (peeked), a completion's until its headers.
      request.stream !== true,
    );
    const value = outcome.value;
    if (!isPeeked(value)) {
      outcome.release();
      const completion = presentModel(value, request.model);
      normalizeUsageOf(completion);
      return toCallResult(request.model, outcome, warnings, completion as TextCompletionResult, metered);
    }
    const summary: StreamSummary = {};
    const ttfbMs = metered && performance.now() - metered.startedAt;
    const { settle, finished } = streamSettler({
      metered,
      target: outcome.target,
      signal: booked.signal,
      ttfbMs,
      summary: () => summary,
    });
    const stripUsage = request.stream_options?.include_usage !== true;
    const stream = guardedItems(
      value,
      outcome,
      summary,
      (chunk) => noteCompletionChunk(chunk, summary, stripUsage, metered !== undefined, request.model),
      settle,
    );
    return { ...toCallResult<TextCompletionResult>(request.model, outcome, warnings, stream, metered), finished };
  });
}

/** One attempt on a deployment: the pass-through when its adapter serves legacy completions, else through chat. */
async function completionAttempt(
  deps: CompletionsCallDeps,
  request: TextCompletionRequest,
  adapter: ProviderAdapter,
  target: RouteTarget,
  context: AdapterCallContext,
): Promise<CompletionAttemptValue> {
  const streamUsage = request.stream === true && deps.providerSettings[target.provider]?.streamUsage !== false;
  const usageOptions = streamUsage ? { stream_options: { ...request.stream_options, include_usage: true } } : {};
  if (adapter.completions) {
    const result = await adapter.completions({ ...request, model: target.upstreamModel, ...usageOptions }, context);
    return isStream(result) ? peekStream(result as AsyncIterable<TextCompletion>) : result;
  }
  const prompts = translatablePrompts(request, target.provider);
  const upstream = { ...request, model: target.upstreamModel, ...usageOptions };
  // Each dropped field is warned about once, however many prompts there are.
  const chats = prompts.map((prompt, i) => chatRequestOf(upstream, prompt, i === 0 ? context.warn : () => {}));
  if (request.stream === true) {
    const result = await adapter.chatCompletions!(chats[0]!, context);
    if (!isStream(result))
      throw new TypeError(`The '${target.provider}' adapter answered a stream request with a completion.`);
    return peekStream(completionChunksOfChat(result as AsyncIterable<ChatCompletionChunk>));
  }
  const answers = await Promise.all(
    chats.map(async (chat) => {
      const answer = await adapter.chatCompletions!(chat, context);
      if (isStream(answer)) throw new TypeError(`The '${target.provider}' adapter answered a request with a stream.`);
      return answer;
    }),
  );
  return completionOfChat(answers, request.n ?? 1);
}

/**
 * Notes one legacy chunk in `summary` (finish reasons, usage in tokens, text when `collectText`) and returns what the
 * client gets: naming `model`; without usage when `stripUsage` (the gateway asked for it), a usage-only chunk then
 * left out (undefined).
 */
function noteCompletionChunk(
  chunk: TextCompletion,
  summary: StreamSummary,
  stripUsage: boolean,
  collectText: boolean,
  model: string,
): TextCompletion | undefined {
  presentModel(chunk, model);
  for (const choice of chunk.choices) {
    if (typeof choice.finish_reason === 'string') (summary.finishReasons ??= [])[choice.index] = choice.finish_reason;
    if (collectText && choice.text) summary.text = (summary.text ?? '') + choice.text;
  }
  if (chunk.usage) summary.usage = normalizeUsageOf(chunk);
  if (!stripUsage || !('usage' in chunk)) return chunk;
  if (chunk.choices.length === 0) return undefined;
  const { usage: _usage, ...rest } = chunk;
  return rest as TextCompletion;
}
