import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { UpstreamModel } from '../adapter/provider-adapter.js';
import { modelNotFoundError } from '../errors/common-errors.js';
import type { Model, ModelList } from '../schemas/model.js';
import type { ModelRouter } from './model-router.js';

interface CacheEntry {
  expires: number;
  models: Promise<UpstreamModel[]>;
}

/**
 * `GET /v1/models`: configured models (`owned_by` = provider name) followed by each provider's own list as
 * `<provider>/<upstream id>`. Provider lists are cached for `ttlMs` (ms); a provider whose list fails is left out
 * (reported through `onError`) rather than failing the whole answer.
 */
export class ModelCatalog {
  readonly #cache = new Map<string, CacheEntry>();
  readonly #created = Math.floor(Date.now() / 1000);

  constructor(
    private readonly router: ModelRouter,
    private readonly ttlMs = 60_000,
    private readonly onError?: (error: unknown, provider: string) => void,
  ) {}

  #upstreamModels(provider: string, context: AdapterCallContext): Promise<UpstreamModel[]> {
    const adapter = this.router.providers.get(provider);
    if (!adapter?.listModels) return Promise.resolve([]);
    const now = Date.now();
    const hit = this.#cache.get(provider);
    if (hit && hit.expires > now) return hit.models;
    const models = adapter.listModels({ ...context, provider }).catch((error: unknown) => {
      this.onError?.(error, provider);
      this.#cache.delete(provider);
      return [];
    });
    this.#cache.set(provider, { expires: now + this.ttlMs, models });
    return models;
  }

  /** The whole list: `{object:"list", data: Model[]}`. */
  async list(context: Omit<AdapterCallContext, 'provider'>): Promise<ModelList> {
    const data: Model[] = this.router.models.map((m) => ({ id: m.id, object: 'model', created: this.#created, owned_by: m.provider ?? m.targets?.[0]?.provider ?? 'switchyard' }));
    const providers = [...this.router.providers.keys()];
    const lists = await Promise.all(providers.map((p) => this.#upstreamModels(p, { ...context, provider: p })));
    providers.forEach((provider, i) => {
      for (const m of lists[i]!) {
        data.push({ id: `${provider}/${m.id}`, object: 'model', created: m.created ?? this.#created, owned_by: provider });
      }
    });
    return { object: 'list', data };
  }

  /** One model by id (configured id or `<provider>/<upstream id>`); throws 404 `model_not_found`. */
  async retrieve(id: string, context: Omit<AdapterCallContext, 'provider'>): Promise<Model> {
    const configured = this.router.models.find((m) => m.id === id);
    if (configured) return { id, object: 'model', created: this.#created, owned_by: configured.provider ?? configured.targets?.[0]?.provider ?? 'switchyard' };
    const target = this.router.resolve(id);
    const adapter = target.adapter;
    if (!adapter.listModels) return { id, object: 'model', created: this.#created, owned_by: target.provider };
    const found = (await this.#upstreamModels(target.provider, { ...context, provider: target.provider })).find(
      (m) => m.id === target.upstreamModel,
    );
    if (!found) throw modelNotFoundError(id);
    return { id, object: 'model', created: found.created ?? this.#created, owned_by: target.provider };
  }
}
