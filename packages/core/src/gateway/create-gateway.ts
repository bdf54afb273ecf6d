import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { Agent, type Dispatcher } from 'undici';
import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import type { NativeMessagesResult } from '../adapter/native-messages.js';
import type { NativeResponsesResult } from '../adapter/native-responses.js';
import { upstreamErrorMeaning } from '../errors/upstream-error-meaning.js';
import type { CallAccounting, CallOperation } from '../accounting/call-accounting.js';
import { embeddingRequestSchema } from '../schemas/embedding-request.js';
import type { EmbeddingResponse } from '../schemas/embedding-response.js';
import { imageGenerationRequestSchema } from '../schemas/image-generation-request.js';
import type { ImagesResponse } from '../schemas/images-response.js';
import { rerankRequestSchema } from '../schemas/rerank-request.js';
import type { RerankResponse } from '../schemas/rerank-response.js';
import type { Model, ModelList } from '../schemas/model.js';
import { checkModelId } from '../schemas/model-id.js';
import type { SpeechResult } from '../schemas/speech-request.js';
import type { UploadedFile } from '../schemas/transcription-request.js';
import type { TranscriptionResult } from '../schemas/transcription-response.js';
import { filterCapableTargetsWithLists } from '../routing/filter-capable-targets.js';
import { KeyRing } from './key-ring.js';
import type { RequiredCapability } from '../model/model-capabilities.js';
import { ModelCatalog } from './model-catalog.js';
import { ModelRouter } from './model-router.js';
import type { RoutePlan, RouteTarget } from '../model/route-plan.js';
import { type CallOverrides, type PlanOutcome, executePlan } from '../routing/execute-plan.js';
import type { UpstreamCallSettings } from '../utils/upstream-body-limits.js';
import { type RoutingPolicy, resolveRoutingPolicy } from '../routing/routing-policy.js';
import { TargetHealth } from '../routing/target-health.js';
import type { GatewayObserver } from '../routing/router-events.js';
import { normalizeEmbeddings } from './normalize-embeddings.js';
import { presentModel } from './present-model.js';
import { validateRequest } from './validate-request.js';
import { type CountTokensPreparer, runLocalCall } from './local-call.js';
import {
  ADMITTING,
  type Booking,
  type Metered,
  abortedStatus,
  bookRefusal,
  isMeteredStream,
  statusOf,
} from './call-metering.js';
import type { ChatCompletionResult } from './chat-completion-result.js';
import type { GatewayCallOptions, GatewayCallResult, GatewayOptions, ProviderSettings } from './gateway-options.js';
import { attemptObserverHooks, cooldownNotifier } from './attempt-observer-hooks.js';
import { clampOverrides } from './call-overrides.js';
import { OperationPlans, firstTargetServes } from './operation-plans.js';
import { StreamAcceptance } from './stream-acceptance.js';
import { planWithout } from './stream-failover.js';
import { toCallResult } from './call-result.js';
import {
  type PassThroughOperation,
  type PassThroughValue,
  passThroughResult,
  runPassThrough,
} from './native-pass-through.js';
import { CachedCalls } from './cached-calls.js';
import type { CallRunner } from './call-runner.js';
import { transcriptionsCall, translationsCall } from './audio-upload-calls.js';
import { jsonOperationCall } from './json-operation-call.js';
import { speechCall } from './speech-call.js';
import { type ChatCallDeps, chatCompletionsCall } from './chat-call.js';
import type { ModerationResponse } from '../schemas/moderation-response.js';
import { moderationRequestSchema } from '../schemas/moderation-request.js';
import type { TextCompletionResult } from '../schemas/text-completion.js';
import type { ImageEditResult } from '../schemas/image-edit-result.js';
import { completionsCall } from './completions-call.js';
import { imageEditsCall, imageVariationsCall } from './image-edit-calls.js';
import { type RealtimeCall, type RealtimeCallOptions, openRealtimeCall } from './realtime-call.js';

/**
 * The framework-free gateway: validates OpenAI-format requests (throwing 4xx `GatewayError`s that name the
 * field), routes `model` to a provider adapter, and normalises answers (usage sums, embedding encoding).
 * Embed it in any server: Switchyard's Express app is a thin layer over these methods.
 */
export class Gateway {
  readonly router: ModelRouter;
  readonly keys: KeyRing;
  readonly catalog: ModelCatalog;
  readonly policy: RoutingPolicy;
  /** Live health of every deployment (in flight, latency, circuit breaker). */
  readonly health: TargetHealth;
  /** Round-robin call counters per model id (the 10,000 most recently used). */
  readonly #counters = new LRUCache<string, number>({ max: 10_000 });
  /** This gateway's upstream connection pool (its own connect timeout; never shared with another gateway). */
  readonly dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #providerSettings: Record<string, ProviderSettings>;
  #observers: GatewayObserver[] = [];
  readonly #accounting?: CallAccounting;
  readonly #plans: OperationPlans;
  readonly #cached: CachedCalls; // the response cache (GatewayOptions.responseCache)
  /** The call pipeline for the operations kept in their own modules (translations, ...). */
  readonly #runner: CallRunner = {
    booked: (body, options, run) => this.#booked(body, options, run),
    simple: (operation, request, options, run) => this.#simple(operation, request, options, run),
    call: (operation, request, options, run, acceptOnHeaders, needs) =>
      this.#call(operation, request, options, run, acceptOnHeaders, needs),
  };
  /** What chat calls need of this gateway (see `chatCompletionsCall`). */
  readonly #chat: ChatCallDeps;

  /** Throws an Error when a model names an unconfigured provider or fallback. */
  constructor(options: GatewayOptions) {
    this.router = new ModelRouter(options.providers, options.models ?? [], options.aliases);
    this.keys = new KeyRing(options.keys ?? []);
    this.#plans = new OperationPlans(this.router);
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher =
      options.dispatcher ??
      new Agent({
        keepAliveTimeout: 60_000,
        keepAliveMaxTimeout: 600_000,
        connect: { timeout: options.connectTimeoutMs ?? 10_000 },
        headersTimeout: 600_000,
        bodyTimeout: 300_000,
      });
    this.#providerSettings = options.providerSettings ?? {};
    this.#accounting = options.accounting;
    this.#cached = new CachedCalls(
      options,
      (operation, model) => this.#plans.planFor(operation, model),
      (model) => this.router.resolvedDefinition(model),
    );
    this.catalog = new ModelCatalog(this.router, options.modelListTtlMs, options.onBackgroundError, {
      timeoutMs: options.modelListTimeoutMs,
      upstream: (provider) => this.#upstream(provider),
    });
    this.policy = resolveRoutingPolicy(options.routing);
    this.#chat = {
      runner: this.#runner,
      call: (operation, request, options, run, acceptOnHeaders, needs) =>
        this.#call(operation, request, options, run, acceptOnHeaders, needs),
      cached: this.#cached,
      router: this.router,
      providerSettings: this.#providerSettings,
    };
    this.health = new TargetHealth(
      this.policy.cooldown,
      Date.now,
      cooldownNotifier(() => this.#observers),
      options.sharedCooldown,
    );
  }

  /**
   * Registers hooks called on every upstream attempt (start, outcome) and breaker change, for metrics and traces.
   * Returns a function that unregisters them.
   */
  observe(observer: GatewayObserver): () => void {
    this.#observers = [...this.#observers, observer];
    return () => {
      this.#observers = this.#observers.filter((o) => o !== observer);
    };
  }

  #upstream(provider: string, onResponseHeaders?: () => void): UpstreamCallSettings {
    return { dispatcher: this.dispatcher, limits: this.#providerSettings[provider]?.limits, onResponseHeaders };
  }

  /** Closes this gateway's upstream connection pool (calls in flight finish first). */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.dispatcher.close();
  }

  /**
   * Checks an `Authorization` header and returns the caller to pass as {@link GatewayCallOptions.caller}: with
   * `accounting`, its principal (virtual or static key); else undefined once the header holds one of `keys`.
   * Throws 401 when it holds no valid key. With `accounting` the answer may be a promise of the caller (rejected with
   * the 401) when the key has to be looked up first (see {@link CallAccounting.authenticate}); `clientAddress` is the
   * client's IP address, for limits on such look-ups.
   */
  authenticate(
    authorization: string | undefined,
    context: { requestId?: string; clientAddress?: string } = {},
  ): unknown {
    if (this.#accounting)
      return this.#accounting.authenticate(authorization, {
        requestId: context.requestId ?? randomUUID(),
        clientAddress: context.clientAddress,
      });
    this.keys.authenticate(authorization);
    return undefined;
  }

  /** Runs one call so that a call refused before admission is still booked (see {@link bookRefusal}). */
  #booked<T>(body: unknown, options: GatewayCallOptions, run: (options: GatewayCallOptions) => Promise<T>): Promise<T> {
    return bookRefusal(this.#accounting, body, options, run);
  }

  async #call<T>(
    operation: CallOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
    run: (adapter: ProviderAdapter, target: RouteTarget, context: AdapterCallContext) => Promise<T>,
    acceptOnHeaders = true,
    needs: readonly RequiredCapability[] = [],
  ): Promise<{
    outcome: PlanOutcome<T>;
    warnings: GatewayWarning[];
    metered?: Metered;
    resume: (exclude: ReadonlySet<string>) => Promise<PlanOutcome<T>>;
  }> {
    const model = request.model as string;
    const startedAt = performance.now();
    let plan = this.#plans.planFor(operation, model);
    // Only a request that needs capabilities waits (model lists); others reach the upstream without a microtask's delay.
    if (needs.length > 0) plan = await filterCapableTargetsWithLists(plan, needs, this.catalog);
    const requestId = options.requestId ?? randomUUID();
    const stream = isMeteredStream(operation, request);
    let metered: Metered | undefined;
    if (this.#accounting) {
      const admitting = (options as Partial<Booking>)[ADMITTING];
      if (admitting) admitting.started = true;
      const ticket = await this.#accounting.admit({
        caller: options.caller,
        operation,
        model,
        plan,
        request,
        requestId,
        stream,
        ...(options.labels && { labels: options.labels }),
      });
      if (admitting) admitting.ticket = ticket;
      plan = ticket.plan;
      metered = { ticket, attempts: [], startedAt, stream };
    }
    let warnings: GatewayWarning[] = [];
    const acceptance = new StreamAcceptance(stream ? options.onAccepted : undefined, metered?.ticket.headers);
    const overrides = clampOverrides(this.policy, options);
    const execute = (plan: RoutePlan, overrides: CallOverrides) =>
      executePlan<T>({
        plan,
        health: this.health,
        policy: this.policy,
        overrides,
        signal: options.signal ?? new AbortController().signal,
        counters: this.#counters,
        hooks: attemptObserverHooks(this.#observers, operation, model, requestId),
        onAttempt: metered && ((report) => metered.attempts.push(report)),
        run: (target, signal, headers, accepted) => {
          const attemptWarnings: GatewayWarning[] = (warnings = []);
          return run(target.adapter, target, {
            signal,
            requestId,
            provider: target.provider,
            headers: options.upstreamHeaders ? { ...options.upstreamHeaders, ...headers } : headers,
            ...(options.clientHeaders && { clientHeaders: options.clientHeaders }),
            warn: (w) => attemptWarnings.push(w),
            upstream: this.#upstream(
              target.provider,
              acceptance.hook(target, attemptWarnings, acceptOnHeaders ? accepted : undefined),
            ),
          }).catch((error: unknown) => {
            throw upstreamErrorMeaning(target.provider, error);
          });
        },
      });
    try {
      const outcome = await execute(plan, overrides);
      // The rest of the plan within what is left of the deadline (mid-stream failover).
      const resume = (exclude: ReadonlySet<string>) =>
        execute(planWithout(plan, exclude), { ...overrides, timeoutMs: Math.max(1, outcome.deadline - Date.now()) });
      return { outcome, warnings, metered, resume };
    } catch (error) {
      if (metered) {
        const status = options.signal?.aborted ? abortedStatus(options.signal) : statusOf(error);
        metered.ticket.settle({ status, attempts: metered.attempts, latencyMs: performance.now() - startedAt, stream });
      }
      throw error;
    }
  }

  /** Runs a non-streaming operation through the plan and releases the attempt. */
  async #simple<T>(
    operation: CallOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
    run: (adapter: ProviderAdapter, target: RouteTarget, context: AdapterCallContext) => Promise<T>,
  ): Promise<GatewayCallResult<T>> {
    const { outcome, warnings, metered } = await this.#call(operation, request, options, run);
    outcome.release();
    return toCallResult(request.model as string, outcome, warnings, outcome.value, metered);
  }

  /** `POST /v1/chat/completions` (see `chatCompletionsCall`). */
  chatCompletions(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<ChatCompletionResult>> {
    return chatCompletionsCall(this.#chat, body, options);
  }

  /** `POST /v1/completions` (legacy): passed through or translated through chat (see `completionsCall`). */
  completions(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<TextCompletionResult>> {
    return completionsCall({ runner: this.#runner, providerSettings: this.#providerSettings }, body, options);
  }

  /** `POST /v1/embeddings`; vectors come back in the requested `encoding_format`. */
  async embeddings(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<EmbeddingResponse>> {
    return this.#booked(body, options, async (booked) => {
      const request = validateRequest(embeddingRequestSchema, body);
      return this.#cached.through(
        'embeddings',
        request,
        booked,
        () =>
          this.#simple('embeddings', request, booked, async (adapter, target, context) =>
            presentModel(
              normalizeEmbeddings(
                await adapter.embeddings!({ ...request, model: target.upstreamModel }, context),
                request.encoding_format,
              ),
              request.model,
            ),
          ),
        'embeddings',
      );
    });
  }

  /** `POST /v1/audio/transcriptions`: `fields` the multipart text fields, `file` the upload (see `transcriptionsCall`). */
  transcriptions(
    fields: Record<string, unknown>,
    file: UploadedFile | undefined,
    options: GatewayCallOptions = {},
  ): Promise<GatewayCallResult<TranscriptionResult>> {
    return transcriptionsCall(this.#runner, fields, file, options);
  }

  /** `POST /v1/audio/translations`: as {@link transcriptions}, the answer in English (see `translationsCall`). */
  translations(
    fields: Record<string, unknown>,
    file: UploadedFile | undefined,
    options: GatewayCallOptions = {},
  ): Promise<GatewayCallResult<TranscriptionResult>> {
    return translationsCall(this.#runner, fields, file, options);
  }

  /** `POST /v1/audio/speech`: audio bytes streamed with the upstream's content type (see `speechCall`). */
  speech(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<SpeechResult>> {
    return speechCall(this.#runner, body, options);
  }

  /** `POST /v1/rerank` (Cohere's shape): `documents` ordered by relevance to `query`. */
  rerank(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<RerankResponse>> {
    return jsonOperationCall(this.#runner, 'rerank', rerankRequestSchema, body, options, (adapter, request, context) =>
      adapter.rerank!(request, context),
    );
  }

  /**
   * `POST /v1/moderations`: `model` defaults to `omni-moderation-latest` (route it in the config like any model); 400
   * naming `input` when it is missing, empty or of another type.
   */
  moderations(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<ModerationResponse>> {
    return jsonOperationCall(
      this.#runner,
      'moderations',
      moderationRequestSchema,
      body,
      options,
      (adapter, request, context) => adapter.moderations!(request, context),
    );
  }

  /** `POST /v1/images/generations`. */
  imageGenerations(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<ImagesResponse>> {
    return jsonOperationCall(
      this.#runner,
      'imageGenerations',
      imageGenerationRequestSchema,
      body,
      options,
      (adapter, request, context) => adapter.imageGenerations!(request, context),
    );
  }

  /** `POST /v1/images/edits`: `images` the `image`/`image[]` uploads, `mask` the optional mask (see `imageEditsCall`). */
  imageEdits(
    fields: Record<string, unknown>,
    images: readonly UploadedFile[],
    mask: UploadedFile | undefined,
    options: GatewayCallOptions = {},
  ): Promise<GatewayCallResult<ImageEditResult>> {
    return imageEditsCall(this.#runner, fields, images, mask, options);
  }

  /** `POST /v1/images/variations`: `image` the upload (see `imageVariationsCall`). */
  imageVariations(
    fields: Record<string, unknown>,
    image: UploadedFile | undefined,
    options: GatewayCallOptions = {},
  ): Promise<GatewayCallResult<ImagesResponse>> {
    return imageVariationsCall(this.#runner, fields, image, options);
  }

  /**
   * True when `model`'s first deployment has an Anthropic Messages pass-through (`ProviderAdapter.anthropicMessages`),
   * so that `/v1/messages` may send the request as it is. Throws 404 for an unknown model.
   */
  supportsAnthropicMessages(model: string): boolean {
    return firstTargetServes(this.router.plan(model), 'anthropicMessages');
  }

  /**
   * `POST /v1/messages` passed through to adapters that speak Anthropic's Messages API (`body` validated by the front
   * door), routed like any call (retries; fallbacks among models whose deployments pass through too); streams as in
   * `passThroughResult`. Throws as {@link chatCompletions}.
   */
  async anthropicMessages(
    body: Record<string, unknown> & { model: string },
    options: GatewayCallOptions = {},
  ): Promise<GatewayCallResult<NativeMessagesResult>> {
    return this.#passThrough('anthropicMessages', body, options);
  }

  /**
   * `POST /v1/messages/count_tokens`: admitted (allow-list, rpm; no tokens or budget reserved) and booked at cost 0; the
   * upstream's count where the first deployment has `anthropicCountTokens` (routed as usual), else the estimate
   * (tokens). `prepare` validates the body (its 400 is booked like any refusal). Throws as {@link chatCompletions}. @see https://docs.anthropic.com/en/api/messages-count-tokens
   */
  async anthropicCountTokens(
    body: unknown,
    prepare: CountTokensPreparer,
    options: GatewayCallOptions = {},
  ): Promise<GatewayCallResult<{ input_tokens: number }>> {
    return this.#booked(body, options, async (booked) => {
      const { request, estimate } = prepare(body);
      const plan = this.router.plan(request.model);
      if (firstTargetServes(plan, 'anthropicCountTokens')) {
        return this.#simple('anthropicCountTokens', request, booked, (adapter, target, context) =>
          adapter.anthropicCountTokens!({ ...request, model: target.upstreamModel }, context),
        );
      }
      const work = async () => ({ input_tokens: await estimate() });
      return runLocalCall({
        accounting: this.#accounting,
        operation: 'anthropicCountTokens',
        request,
        plan,
        options: booked,
        work,
      });
    });
  }

  /** As {@link supportsAnthropicMessages}, for OpenAI's Responses API (`ProviderAdapter.openaiResponses`). */
  supportsOpenAIResponses(model: string): boolean {
    return firstTargetServes(this.router.plan(model), 'openaiResponses');
  }

  /**
   * True when the first target of `model` maps chat's `web_search_options` to its own search tool
   * (`ProviderAdapter.webSearch`), so that the Responses front door maps hosted `web_search` tools for it.
   */
  supportsWebSearch(model: string): boolean {
    return this.router.plan(model).models[0]?.targets[0]?.adapter.webSearch === true;
  }

  /** `POST /v1/responses` passed through to OpenAI's Responses API, as {@link anthropicMessages}; metered from its `usage`. */
  async openaiResponses(
    body: Record<string, unknown> & { model: string },
    options: GatewayCallOptions = {},
  ): Promise<GatewayCallResult<NativeResponsesResult>> {
    return this.#passThrough('openaiResponses', body, options);
  }

  #passThrough(
    operation: PassThroughOperation,
    body: Record<string, unknown> & { model: string },
    options: GatewayCallOptions,
  ): Promise<GatewayCallResult<NativeMessagesResult>> {
    return this.#booked(body, options, async (booked) => {
      // As for chat: a stream's first-byte timer runs until its first event (peeked by runPassThrough), JSON's until its headers.
      const { outcome, warnings, metered } = await this.#call<PassThroughValue>(
        operation,
        body,
        booked,
        (adapter, target, context) => runPassThrough(operation, body, adapter, target, context),
        body.stream !== true,
      );
      return passThroughResult(body.model, outcome, warnings, metered, booked.signal);
    });
  }

  /**
   * `GET /v1/realtime?model=<id>`: resolves and admits a Realtime session and returns where to connect it (see
   * {@link openRealtimeCall}); the caller runs the WebSocket relay and closes `ticket` when the session ends.
   */
  openRealtime(model: string | undefined, options: RealtimeCallOptions): Promise<RealtimeCall> {
    return openRealtimeCall(this.#plans, this.#accounting, model, options);
  }

  #listContext(options: GatewayCallOptions) {
    return { signal: options.signal ?? new AbortController().signal, requestId: options.requestId ?? randomUUID() };
  }

  /** `GET /v1/models`: configured models, then each provider's own as `<provider>/<id>`. */
  listModels(options: GatewayCallOptions = {}): Promise<ModelList> {
    return this.catalog.list(this.#listContext(options));
  }

  /**
   * `GET /v1/models` with what went wrong: providers whose list failed or timed out are left out, each with a
   * `provider_unavailable` warning.
   */
  listModelsWithWarnings(options: GatewayCallOptions = {}): Promise<{ list: ModelList; warnings: GatewayWarning[] }> {
    return this.catalog.listWithWarnings(this.#listContext(options));
  }

  /** `GET /v1/models/{model}`; throws 400 naming `model` for an invalid id, 404 `model_not_found`. */
  async retrieveModel(id: string, options: GatewayCallOptions = {}): Promise<Model> {
    checkModelId(id);
    return this.catalog.retrieve(id, this.#listContext(options));
  }
}

/** Creates a {@link Gateway} from adapters, model definitions and the gateway's keys. */
export function createGateway(options: GatewayOptions): Gateway {
  return new Gateway(options);
}
