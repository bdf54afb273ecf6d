import type { CacheLookup, CachedCalls } from './cached-calls.js';
import { invalidRequestError } from '../errors/common-errors.js';
import type { PlanOutcome } from '../routing/execute-plan.js';
import { type PeekedStream, peekStream } from '../routing/guard-stream.js';
import { isPlainChatCompletionRequest } from '../schemas/check-plain-chat-request.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import {
  type ChatCompletionRequest,
  MAX_CHAT_MESSAGES,
  chatCompletionRequestSchema,
} from '../schemas/chat-completion-request.js';
import type { ChatCompletion } from '../schemas/chat-completion.js';
import { type PeekedBatches, chatCallResult } from './chat-call-result.js';
import { type ChatCompletionResult, isChunkStream } from './chat-completion-result.js';
import { chunkBatchesOf } from './chunk-batches.js';
import type { CallOperation } from '../accounting/call-accounting.js';
import type { AttemptRun, CallRunner, RunningCall } from './call-runner.js';
import type { GatewayCallOptions, GatewayCallResult, ProviderSettings } from './gateway-options.js';
import { type RequiredCapability, requiredCapabilities } from '../model/model-capabilities.js';
import type { ModelRouter } from './model-router.js';
import type { RouteTarget } from '../model/route-plan.js';
import { validateRequest } from './validate-request.js';

/** What one chat attempt resolves with: a whole completion, a peeked chunk stream, or peeked batches of chunks. */
type ChatAttemptValue = ChatCompletion | PeekedStream<ChatCompletionChunk> | PeekedBatches;

/**
 * What a chat call needs of the gateway: its call pipeline (whose `call` also resumes the rest of the plan for
 * mid-stream failover), the response cache, the router (a model's `streamFailover`) and the per-provider settings
 * (`streamUsage`).
 */
export interface ChatCallDeps {
  runner: CallRunner;
  /** `CallRunner.call` with the resumption of the plan without the deployments in `exclude` (mid-stream failover). */
  call: (
    operation: CallOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
    run: AttemptRun<ChatAttemptValue>,
    acceptOnHeaders?: boolean,
    needs?: readonly RequiredCapability[],
  ) => Promise<
    RunningCall<ChatAttemptValue> & { resume: (exclude: ReadonlySet<string>) => Promise<PlanOutcome<ChatAttemptValue>> }
  >;
  cached: CachedCalls;
  router: ModelRouter;
  providerSettings: Readonly<Record<string, ProviderSettings>>;
}

/**
 * `POST /v1/chat/completions`. `body` is the parsed JSON. Resolves with a completion, or a chunk stream when
 * `stream: true` (upstream accepted; errors after this point come from the stream's iterator). Throws 400 (validation,
 * more than `MAX_CHAT_MESSAGES` messages, `stream_options` without `stream`), 404 (`model_not_found`), upstream errors
 * as `GatewayError`.
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
export function chatCompletionsCall(
  deps: ChatCallDeps,
  body: unknown,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<ChatCompletionResult>> {
  return deps.runner.booked(body, options, async (booked) => {
    const messages = (body as { messages?: unknown } | null)?.messages;
    // Refused before validation, whose cost grows with every message.
    if (Array.isArray(messages) && messages.length > MAX_CHAT_MESSAGES) {
      throw invalidRequestError(
        `Invalid 'messages': array too long (${messages.length}). Expected at most ${MAX_CHAT_MESSAGES}.`,
        'messages',
        'array_above_max_length',
      );
    }
    const request: ChatCompletionRequest = validateRequest(
      chatCompletionRequestSchema,
      body,
      isPlainChatCompletionRequest,
    );
    if (request.stream !== true && request.stream_options != null) {
      throw invalidRequestError("'stream_options' is only allowed when 'stream' is true.", 'stream_options');
    }
    return deps.cached.through('chatCompletions', request, booked, (cache) => fetchChat(deps, request, booked, cache));
  });
}

/** Routes a validated chat request that the response cache did not answer (`cache` stores what it fetches). */
async function fetchChat(
  deps: ChatCallDeps,
  request: ChatCompletionRequest,
  options: GatewayCallOptions,
  cache: CacheLookup,
): Promise<GatewayCallResult<ChatCompletionResult>> {
  let continuation: ((target: RouteTarget) => ChatCompletionRequest['messages']) | undefined;
  const failover = request.stream === true && deps.router.plan(request.model).models[0]!.streamFailover === true;
  // An adapter's batches (byte pass-through) are read when nothing between it and the client needs every chunk
  // parsed: no mid-stream failover (it splices chunks) and no response cache recording the stream.
  const batched = request.stream === true && !failover && !cache.records;
  const { outcome, warnings, metered, resume } = await deps.call(
    'chatCompletions',
    request,
    options,
    async (adapter, target, context): Promise<ChatAttemptValue> => {
      const upstreamRequest: ChatCompletionRequest = {
        ...request,
        model: target.upstreamModel,
        ...(continuation && { messages: continuation(target) }),
      };
      if (request.stream === true && deps.providerSettings[target.provider]?.streamUsage !== false) {
        upstreamRequest.stream_options = { ...request.stream_options, include_usage: true };
      }
      const result = await adapter.chatCompletions!(upstreamRequest, context);
      if (!isChunkStream(result)) return result;
      const batches = batched ? chunkBatchesOf(result) : undefined;
      if (!batches) return peekStream(result);
      const peeked: PeekedBatches = await peekStream({ [Symbol.asyncIterator]: batches });
      peeked.batched = true;
      return peeked;
    },
    // A stream's first-byte timer runs until its first chunk (peeked above), a completion's until its headers.
    request.stream !== true,
    requiredCapabilities(request),
  );
  return chatCallResult({
    request,
    outcome,
    warnings,
    metered,
    resume,
    signal: options.signal,
    cache,
    failover,
    continueWith: (messages) => (continuation = messages),
  });
}
