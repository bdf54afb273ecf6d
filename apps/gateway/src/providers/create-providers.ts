import type { ProviderAdapter } from '@switchyard/core';
import { ConfigError } from '../config/config-error.js';
import type { ProviderConfig } from '../config/config-schema.js';
import { formatZodIssues } from '../config/format-zod-issues.js';
import { loadProviderFactory } from './load-provider-factory.js';
import { readSecretFiles } from './read-secret-files.js';
import { type ReloadableAdapter, reloadableAdapter } from './reloadable-adapter.js';

/**
 * Builds one adapter: loads the factory named by `adapter`, reads `<setting>_file` secrets (see {@link readSecretFiles}),
 * validates the rest of the block (without the gateway's own `limits` and `stream_usage`) with the factory's own zod
 * schema and creates the adapter. Returns it with the secrets read from files. Throws ConfigError naming
 * `providers.<name>` and the bad setting.
 */
async function createProvider(
  name: string,
  config: ProviderConfig,
  cwd?: string,
): Promise<{ adapter: ProviderAdapter; secrets: string[] }> {
  const { adapter, limits: _limits, stream_usage: _streamUsage, ...raw } = config;
  let factory: Awaited<ReturnType<typeof loadProviderFactory>>;
  try {
    factory = await loadProviderFactory(adapter, cwd);
  } catch (error) {
    throw new ConfigError(`providers.${name}: ${(error as Error).message}`, { cause: error });
  }
  const { settings, secrets } = await readSecretFiles(name, raw);
  const parsed = factory.settingsSchema.safeParse(settings);
  if (!parsed.success) {
    throw new ConfigError(
      `providers.${name} (adapter '${adapter}') has invalid settings:\n${formatZodIssues(parsed.error, ['providers', name])}`,
    );
  }
  try {
    return { adapter: factory.create(parsed.data), secrets };
  } catch (error) {
    throw new ConfigError(
      `providers.${name}: the adapter '${adapter}' refused its settings: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/**
 * The configured provider adapters, each behind a {@link reloadableAdapter} so that {@link ProviderSet.reload} can
 * rebuild them with re-read secrets (`SIGHUP`) without dropping traffic: calls in flight finish on the adapter they
 * started with, later calls use the new one.
 */
export class ProviderSet {
  /** Adapters by provider name, for `createGateway({ providers })`. */
  readonly adapters: Record<string, ProviderAdapter> = {};
  /** Secrets read from `<setting>_file` files so far (old ones kept: calls in flight may still use them). */
  readonly fileSecrets: string[] = [];
  readonly #handles = new Map<string, { reloadable: ReloadableAdapter; adapter: string }>();

  private constructor(private readonly cwd?: string) {}

  /** Builds every `providers` entry. Throws ConfigError naming `providers.<name>` and the bad setting. */
  static async create(providers: Record<string, ProviderConfig>, cwd?: string): Promise<ProviderSet> {
    const set = new ProviderSet(cwd);
    for (const [name, config] of Object.entries(providers)) {
      const { adapter, secrets } = await createProvider(name, config, cwd);
      const reloadable = reloadableAdapter(adapter);
      set.adapters[name] = reloadable.adapter;
      set.#handles.set(name, { reloadable, adapter: config.adapter });
      set.fileSecrets.push(...secrets);
    }
    return set;
  }

  /**
   * Rebuilds every provider from `providers` (the config read again: its settings, env substitutions and secret files)
   * and swaps the new adapters in, all or none: any error (ConfigError naming the setting) leaves every adapter as it
   * was. Providers added or removed, or whose `adapter` changed, need a restart: they are refused here. Returns the
   * names rebuilt and the secrets read from files.
   */
  async reload(providers: Record<string, ProviderConfig>): Promise<{ providers: string[]; secrets: string[] }> {
    const names = Object.keys(providers);
    const known = [...this.#handles.keys()];
    if (names.length !== known.length || names.some((n) => this.#handles.get(n)?.adapter !== providers[n]?.adapter)) {
      throw new ConfigError(
        `Reloading secrets cannot add, remove or change providers (configured: ${known.join(', ')}); restart the gateway for that.`,
      );
    }
    const built = await Promise.all(
      names.map(
        async (name) => [name, await createProvider(name, providers[name] as ProviderConfig, this.cwd)] as const,
      ),
    );
    const secrets: string[] = [];
    for (const [name, { adapter, secrets: read }] of built) {
      this.#handles.get(name)?.reloadable.swap(adapter);
      secrets.push(...read);
    }
    this.fileSecrets.push(...secrets.filter((s) => !this.fileSecrets.includes(s)));
    return { providers: names, secrets };
  }
}

/** Builds one adapter per `providers` entry (see {@link ProviderSet.create}). */
export async function createProviders(
  providers: Record<string, ProviderConfig>,
  cwd?: string,
): Promise<Record<string, ProviderAdapter>> {
  return (await ProviderSet.create(providers, cwd)).adapters;
}
