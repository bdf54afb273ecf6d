import { BUILTIN_ADAPTERS } from '../providers/builtin-adapters.js';
import { loadProviderFactory } from '../providers/load-provider-factory.js';
import { ConfigError } from './config-error.js';
import { type GatewayConfig, gatewayConfigSchema } from './config-schema.js';
import { formatZodIssues } from './format-zod-issues.js';

/**
 * The config used when no file is given: gateway keys from `SWITCHYARD_API_KEY` (comma-separated), one provider per
 * built-in adapter whose API key variable is set (e.g. `OPENAI_API_KEY`; `<NAME>_BASE_URL` overrides its base URL) or
 * whose `settingsFromEnv` finds its variables (the clouds: e.g. `AZURE_OPENAI_API_KEY` + `AZURE_OPENAI_ENDPOINT`; the
 * OpenAI-compatible presets: e.g. `GROQ_API_KEY`, or `OLLAMA_BASE_URL` for a keyless local server),
 * `SWITCHYARD_HOST` / `SWITCHYARD_PORT` for the listener, `SWITCHYARD_MASTER_KEY` to enable the admin API and virtual
 * keys (stored in `./switchyard.db`, or in Postgres when `DATABASE_URL` is set; limits shared on Redis when
 * `REDIS_URL` is set). Clients address models as
 * `<provider>/<upstream id>`.
 * Throws ConfigError when no gateway key or no provider key is set.
 */
export async function configFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<GatewayConfig> {
  const keys = (env.SWITCHYARD_API_KEY ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  const masterKey = env.SWITCHYARD_MASTER_KEY;
  if (keys.length === 0 && !masterKey)
    throw new ConfigError(
      'No config file given and SWITCHYARD_API_KEY is not set: the gateway needs at least one key to issue to clients.',
    );
  const providers: Record<string, { adapter: string; [key: string]: unknown }> = {};
  for (const name of Object.keys(BUILTIN_ADAPTERS)) {
    let factory: Awaited<ReturnType<typeof loadProviderFactory>>;
    try {
      factory = await loadProviderFactory(name);
    } catch {
      continue; // That adapter package is not installed.
    }
    if (factory.settingsFromEnv) {
      const settings = factory.settingsFromEnv(env);
      if (settings) providers[name] = { ...settings, adapter: name };
      continue;
    }
    const variable = factory.apiKeyEnv?.find((v) => env[v]);
    if (!variable) continue;
    const baseURL = env[`${name.toUpperCase()}_BASE_URL`];
    providers[name] = { adapter: name, api_key: env[variable], ...(baseURL ? { base_url: baseURL } : {}) };
  }
  if (Object.keys(providers).length === 0) {
    throw new ConfigError(
      'No config file given and no provider key is set: set e.g. OPENAI_API_KEY (or the variables of a cloud), or pass --config FILE.',
    );
  }
  const port = env.SWITCHYARD_PORT ? Number(env.SWITCHYARD_PORT) : undefined;
  const result = gatewayConfigSchema.safeParse({
    server: { host: env.SWITCHYARD_HOST, port },
    keys,
    providers,
    ...(masterKey ? { admin: { master_key: masterKey } } : {}),
    ...(env.DATABASE_URL ? { store: { postgres: env.DATABASE_URL } } : {}),
    ...(env.REDIS_URL ? { redis: { url: env.REDIS_URL } } : {}),
  });
  if (!result.success) throw new ConfigError(`invalid environment config:\n${formatZodIssues(result.error)}`);
  return result.data;
}
