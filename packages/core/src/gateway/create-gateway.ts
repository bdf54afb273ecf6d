import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Dispatcher } from 'undici';
import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import type { NativeMessagesResult } from '../adapter/native-messages.js';
import type { NativeResponsesResult } from '../adapter/native-responses.js';
import type { CallAccounting, CallOperation } from '../accounting/call-accounting.js';
import type { EmbeddingResponse } from '../schemas/embedding-response.js';
import type { ImagesResponse } from '../schemas/images-response.js';
import type { RerankResponse } from '../schemas/rerank-response.js';
import type { Model, ModelList } from '../schemas/model.js';
import { checkModelId } from '../schemas/model-id.js';
import type { SpeechResult } from '../schemas/speech-request.js';
import type { UploadedFile } from '../schemas/transcription-request.js';
import type { TranscriptionResult } from '../schemas/transcription-response.js';
import { KeyRing } from './key-ring.js';
import type { RequiredCapability } from '../model/model-capabilities.js';
import { ModelCatalog } from './model-catalog.js';
import { ModelRouter } from './model-router.js';
import type { RouteTarget } from '../model/route-plan.js';
import type { UpstreamCallSettings } from '../utils/upstream-body-limits.js';
import { createUpstreamAgent } from '../utils/upstream-dispatcher.js';
import { type RoutingPolicy, resolveRoutingPolicy } from '../routing/routing-policy.js';
import { TargetHealth } from '../routing/target-health.js';
import type { GatewayObserver } from '../routing/router-events.js';
import type { CountTokensPreparer } from './local-call.js';
import { bookRefusal } from './call-metering.js';
import type { ChatCompletionResult } from './chat-completion-result.js';
import type { GatewayCallOptions, GatewayCallResult, GatewayOptions, ProviderSettings } from './gateway-options.js';
import { cooldownNotifier } from './attempt-observer-hooks.js';
import { OperationPlans, firstTargetServes } from './operation-plans.js';
import { toCallResult } from './call-result.js';
import { passThroughCall } from './native-pass-through.js';
import { CachedCalls } from './cached-calls.js';
import type { AttemptRun, CallRunner } from './call-runner.js';
import { type CallPipelineDeps, type PipelineCall, runCallPipeline } from './call-pipeline.js';
import { transcriptionsCall, translationsCall } from './audio-upload-calls.js';
import { imageGenerationsCall, moderationsCall, rerankCall } from './json-operation-call.js';
import { speechCall } from './speech-call.js';
import { type ChatCallDeps, chatCompletionsCall } from './chat-call.js';
import type { ModerationResponse } from '../schemas/moderation-response.js';
import type { TextCompletionResult } from '../schemas/text-completion.js';
import type { ImageEditResult } from '../schemas/image-edit-result.js';
import { completionsCall } from './completions-call.js';
import { countTokensCall } from './count-tokens-call.js';
import { embeddingsCall } from './embeddings-call.js';
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
  /** What every call needs of this gateway (see {@link runCallPipeline}). */
  readonly #pipeline: CallPipelineDeps;

  /** Throws an Error when a model names an unconfigured provider or fallback. */
  constructor(options: GatewayOptions) {
    this.router = new ModelRouter(options.providers, options.models ?? [], options.aliases);
    this.keys = new KeyRing(options.keys ?? []);
    this.#plans = new OperationPlans(this.router);
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? createUpstreamAgent(options.connectTimeoutMs);
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
    this.#pipeline = {
      plans: this.#plans,
      catalog: this.catalog,
      accounting: this.#accounting,
      policy: this.policy,
      health: this.health,
      counters: this.#counters,
      observers: () => this.#observers,
      upstream: (provider, onResponseHeaders) => this.#upstream(provider, onResponseHeaders),
    };
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

  /** Runs one call through the pipeline (see {@link runCallPipeline}): admitted, routed, neither released nor settled. */
  #call<T>(
    operation: CallOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
    run: AttemptRun<T>,
    acceptOnHeaders = true,
    needs: readonly RequiredCapability[] = [],
  ): Promise<PipelineCall<T>> {
    return runCallPipeline(this.#pipeline, operation, request, options, run, acceptOnHeaders, needs);
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
  embeddings(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<EmbeddingResponse>> {
    return embeddingsCall(this.#runner, this.#cached, body, options);
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
    return rerankCall(this.#runner, body, options);
  }

  /**
   * `POST /v1/moderations`: `model` defaults to `omni-moderation-latest` (route it in the config like any model); 400
   * naming `input` when it is missing, empty or of another type.
   */
  moderations(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<ModerationResponse>> {
    return moderationsCall(this.#runner, body, options);
  }

  /** `POST /v1/images/generations`. */
  imageGenerations(body: unknown, options: GatewayCallOptions = {}): Promise<GatewayCallResult<ImagesResponse>> {
    return imageGenerationsCall(this.#runner, body, options);
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
    return passThroughCall(this.#runner, 'anthropicMessages', body, options);
  }

  /**
   * `POST /v1/messages/count_tokens`: admitted (allow-list, rpm; no tokens or budget reserved) and booked at cost 0; the
   * upstream's count where the first deployment has `anthropicCountTokens`, else the estimate (see `countTokensCall`).
   */
  anthropicCountTokens(
    body: unknown,
    prepare: CountTokensPreparer,
    options: GatewayCallOptions = {},
  ): Promise<GatewayCallResult<{ input_tokens: number }>> {
    return countTokensCall(
      { runner: this.#runner, router: this.router, accounting: this.#accounting },
      body,
      prepare,
      options,
    );
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
    return passThroughCall(this.#runner, 'openaiResponses', body, options);
  }

  /**
   * `GET /v1/realtime?model=<id>`: resolves, admits and connects a Realtime session (see {@link openRealtimeCall}).
   */
  openRealtime<C>(model: string | undefined, options: RealtimeCallOptions<C>): Promise<RealtimeCall<C>> {
    const routing = { health: this.health, counters: this.#counters, observers: this.#observers };
    return openRealtimeCall(this.#plans, this.#accounting, routing, model, options);
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
