import type { ProviderAdapter } from '@switchyard/core';
import { ConfigError } from '../config/config-error.js';
import type { ProviderConfig } from '../config/config-schema.js';
import { formatZodIssues } from '../config/format-zod-issues.js';
import { loadProviderFactory } from './load-provider-factory.js';

/**
 * Builds one adapter per `providers` entry: loads the factory named by `adapter`, validates the rest of the block
 * (without the gateway's own `limits` and `stream_usage`)
 * with the factory's own zod schema and creates the adapter. Throws ConfigError naming `providers.<name>` and the
 * bad setting.
 */
export async function createProviders(providers: Record<string, ProviderConfig>, cwd?: string): Promise<Record<string, ProviderAdapter>> {
  const adapters: Record<string, ProviderAdapter> = {};
  for (const [name, { adapter, limits: _limits, stream_usage: _streamUsage, ...settings }] of Object.entries(providers)) {
    let factory: Awaited<ReturnType<typeof loadProviderFactory>>;
    try {
      factory = await loadProviderFactory(adapter, cwd);
    } catch (error) {
      throw new ConfigError(`providers.${name}: ${(error as Error).message}`, { cause: error });
    }
    const parsed = factory.settingsSchema.safeParse(settings);
    if (!parsed.success) {
      throw new ConfigError(`providers.${name} (adapter '${adapter}') has invalid settings:\n${formatZodIssues(parsed.error, ['providers', name])}`);
    }
    try {
      adapters[name] = factory.create(parsed.data);
    } catch (error) {
      throw new ConfigError(`providers.${name}: the adapter '${adapter}' refused its settings: ${(error as Error).message}`, { cause: error });
    }
  }
  return adapters;
}
