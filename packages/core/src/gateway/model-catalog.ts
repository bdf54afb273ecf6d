import { randomUUID } from 'node:crypto';
import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { UpstreamModel } from '../adapter/provider-adapter.js';
import { modelNotFoundError } from '../errors/common-errors.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Model, ModelList } from '../schemas/model.js';
import type { UpstreamCallSettings } from '../utils/upstream-body-limits.js';
import type { ModelDefinition } from '../model/model-definition.js';
import { isModelPattern } from './model-pattern.js';
import type { ModelRouter } from './model-router.js';
import type { ReportedCapabilities } from '../adapter/reported-capabilities.js';

interface Fetched {
  models: UpstreamModel[];
  error?: unknown;
}

interface CacheEntry {
  expires: number;
  fetched: Promise<Fetched>;
}

/** Options of a {@link ModelCatalog} beyond the router, TTL and error callback. */
export interface ModelCatalogOptions {
  /** Deadline of one provider's list, ms. Default 10,000. */
  timeoutMs?: number;
  /** The upstream settings (connection pool, limits) of a provider's calls. */
  upstream?: (provider: string) => UpstreamCallSettings;
}

/** The provider named first by a configured model. */
const ownerOf = (m: ModelDefinition): string => m.provider ?? m.targets?.[0]?.provider ?? 'switchyard';
/** Every provider a configured model names. */
const providersOf = (m: ModelDefinition): string[] =>
  m.provider ? [m.provider] : (m.targets ?? []).map((t) => t.provider);

/** What a listing client waits on: its own signal, never the shared fetch's. */
type ListContext = Pick<AdapterCallContext, 'signal' | 'requestId'>;

/**
 * `GET /v1/models`: configured models and aliases (`owned_by` = provider name), the upstream models pattern models
 * serve, then each provider's own list as `<provider>/<upstream id>`. Each provider's list is fetched with the catalog's own abort signal and deadline
 * (`timeoutMs`), never a client's, and cached for `ttlMs` (ms) when it succeeded; a provider whose list fails or times
 * out is left out with a `provider_unavailable` warning (and reported through `onError`) rather than failing or
 * stalling the whole answer. A client that disconnects stops waiting; the fetch goes on for the others.
 */
export class ModelCatalog {
  readonly #cache = new Map<string, CacheEntry>();
  /** Per provider, the capabilities its last successful list reported, by upstream model id. */
  readonly #reported = new Map<string, Map<string, ReportedCapabilities>>();
  /** When each provider's list was last fetched for capabilities (unix ms), to retry a failing list at most once per TTL. */
  readonly #capabilityFetches = new Map<string, number>();
  readonly #created = Math.floor(Date.now() / 1000);
  readonly #timeoutMs: number;

  constructor(
    private readonly router: ModelRouter,
    private readonly ttlMs = 60_000,
    private readonly onError?: (error: unknown, provider: string) => void,
    private readonly options: ModelCatalogOptions = {},
  ) {
    this.#timeoutMs = options.timeoutMs ?? 10_000;
  }

  #fetch(provider: string): Promise<Fetched> {
    const adapter = this.router.providers.get(provider);
    if (!adapter?.listModels) return Promise.resolve({ models: [] });
    const now = Date.now();
    const hit = this.#cache.get(provider);
    if (hit && hit.expires > now) return hit.fetched;
    const controller = new AbortController();
    const timeout = new GatewayError({
      status: 504,
      type: 'server_error',
      code: 'upstream_timeout',
      message: `The model list of provider '${provider}' took longer than ${this.#timeoutMs} ms.`,
    });
    const timer = setTimeout(() => controller.abort(timeout), this.#timeoutMs);
    const context: AdapterCallContext = {
      signal: controller.signal,
      requestId: randomUUID(),
      provider,
      warn: () => {},
      upstream: this.options.upstream?.(provider),
    };
    const fetched = Promise.race([
      adapter.listModels(context),
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }),
      ),
    ])
      .then((models) => {
        this.#reported.set(
          provider,
          new Map(models.flatMap((m) => (m.capabilities ? [[m.id, m.capabilities] as const] : []))),
        );
        return { models };
      })
      .catch((error: unknown) => {
        this.onError?.(error, provider);
        this.#cache.delete(provider);
        return { models: [], error };
      })
      .finally(() => clearTimeout(timer));
    this.#cache.set(provider, { expires: now + this.ttlMs, fetched });
    return fetched;
  }

  /**
   * What `provider`'s model list reported about `upstreamModel`'s capabilities (the last successful list, even past
   * its TTL), or undefined when it reported nothing or was not fetched. Call {@link prepareCapabilities} first.
   */
  reportedCapabilities(provider: string, upstreamModel: string): ReportedCapabilities | undefined {
    return this.#reported.get(provider)?.get(upstreamModel);
  }

  /**
   * Makes the model lists of `providers` available to {@link reportedCapabilities} for capability-aware routing: a
   * list past its TTL is refreshed in the background (the old one is used meanwhile); a list never fetched is fetched
   * and waited for up to `waitMs` (ms). A failing list is tried again at most once per TTL. Never rejects.
   */
  async prepareCapabilities(providers: Iterable<string>, waitMs: number): Promise<void> {
    const pending: Promise<Fetched>[] = [];
    const now = Date.now();
    for (const provider of providers) {
      if (!this.router.providers.get(provider)?.listModels) continue;
      const cached = this.#cache.get(provider);
      if (cached && cached.expires > now) continue;
      if (now - (this.#capabilityFetches.get(provider) ?? Number.NEGATIVE_INFINITY) < this.ttlMs) continue;
      this.#capabilityFetches.set(provider, now);
      const fetched = this.#fetch(provider);
      if (!this.#reported.has(provider)) pending.push(fetched);
    }
    if (pending.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(pending), new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  /** Waits for a fetch, or until the client's signal aborts (then throws its reason). */
  #wait(fetched: Promise<Fetched>, signal: AbortSignal): Promise<Fetched> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise<Fetched>((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      fetched.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /**
   * The whole list, `{object:"list", data: Model[]}`, and a warning for each provider left out: configured model ids,
   * then aliases, then what each pattern model's providers list upstream that the pattern serves (ids the router
   * sends to that pattern, by their own id), then every provider's list as `<provider>/<id>`; each id once.
   */
  async listWithWarnings(context: ListContext): Promise<{ list: ModelList; warnings: GatewayWarning[] }> {
    const data: Model[] = [];
    const listed = new Set<string>();
    const add = (model: Model) => {
      if (listed.has(model.id)) return;
      listed.add(model.id);
      data.push(model);
    };
    for (const m of this.router.models)
      if (!isModelPattern(m.id)) add({ id: m.id, object: 'model', created: this.#created, owned_by: ownerOf(m) });
    for (const alias of this.router.aliases.keys()) {
      add({
        id: alias,
        object: 'model',
        created: this.#created,
        owned_by: this.router.peek(alias)?.models[0]?.targets[0]?.provider ?? 'switchyard',
      });
    }
    const providers = [...this.router.providers.keys()];
    const lists = await Promise.all(providers.map((p) => this.#wait(this.#fetch(p), context.signal)));
    const warnings: GatewayWarning[] = [];
    const patterned = this.router.models.some((m) => isModelPattern(m.id));
    providers.forEach((provider, i) => {
      const { error, models } = lists[i]!;
      if (error !== undefined) {
        const why = GatewayError.isInstance(error) && error.status === 504 ? 'timed out' : 'failed';
        warnings.push({
          code: 'provider_unavailable',
          param: provider,
          message: `the model list of provider '${provider}' ${why}; its models are not listed`,
        });
      }
      if (!patterned) return;
      for (const m of models) {
        const definition = this.router.definitionOf(m.id);
        if (definition && isModelPattern(definition.id) && providersOf(definition).includes(provider)) {
          add({ id: m.id, object: 'model', created: m.created ?? this.#created, owned_by: provider });
        }
      }
    });
    providers.forEach((provider, i) => {
      for (const m of lists[i]!.models)
        add({ id: `${provider}/${m.id}`, object: 'model', created: m.created ?? this.#created, owned_by: provider });
    });
    return { list: { object: 'list', data }, warnings };
  }

  /** The whole list: `{object:"list", data: Model[]}` (providers whose list failed are left out). */
  async list(context: ListContext): Promise<ModelList> {
    return (await this.listWithWarnings(context)).list;
  }

  /**
   * One model by id (a configured id or alias as configured; a match of a model pattern or `<provider>/<upstream id>`
   * when its provider's list has it, or the provider lists nothing); throws 404 `model_not_found`.
   */
  async retrieve(id: string, context: ListContext): Promise<Model> {
    const configured = isModelPattern(id) ? undefined : this.router.models.find((m) => m.id === id);
    if (configured) return { id, object: 'model', created: this.#created, owned_by: ownerOf(configured) };
    if (this.router.aliases.has(id))
      return { id, object: 'model', created: this.#created, owned_by: this.router.resolve(id).provider };
    const target = this.router.resolve(id);
    const adapter = target.adapter;
    if (!adapter.listModels) return { id, object: 'model', created: this.#created, owned_by: target.provider };
    const { models, error } = await this.#wait(this.#fetch(target.provider), context.signal);
    if (error !== undefined)
      throw GatewayError.isInstance(error)
        ? error
        : new GatewayError({
            status: 502,
            type: 'server_error',
            code: 'upstream_unreachable',
            message: `The model list of provider '${target.provider}' failed.`,
          });
    const found = models.find((m) => m.id === target.upstreamModel);
    if (!found) throw modelNotFoundError(id);
    return { id, object: 'model', created: found.created ?? this.#created, owned_by: target.provider };
  }
}
