import { pathToFileURL } from 'node:url';
import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { resolve as resolveModule } from 'import-meta-resolve';
import { ConfigError } from '../config/config-error.js';
import { BUILTIN_ADAPTERS } from './builtin-adapters.js';

async function importPackage(packageName: string, cwd: string): Promise<Record<string, unknown>> {
  let url: string | undefined;
  try {
    url = resolveModule(packageName, pathToFileURL(`${cwd}/`).href);
  } catch {
    // Not installed in the working directory: fall back to the gateway's own dependencies (built-in adapters).
  }
  try {
    return (await import(url ?? packageName)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && !url && String((error as Error).message).includes(packageName)) {
      throw new ConfigError(`package '${packageName}' is not installed (run \`pnpm add ${packageName}\` in ${cwd}).`, {
        cause: error,
      });
    }
    throw new ConfigError(`package '${packageName}' failed to load: ${(error as Error).message}`, { cause: error });
  }
}

function isFactory(value: unknown): value is ProviderFactory {
  const v = value as Partial<ProviderFactory> | null;
  return (
    !!v && typeof v === 'object' && typeof v.create === 'function' && typeof v.settingsSchema?.safeParse === 'function'
  );
}

/**
 * Loads the {@link ProviderFactory} for an `adapter:` value: a built-in name (`openai`, `anthropic`, `google`, `azure`,
 * `bedrock`, `vertex`, or a preset such as `groq`, see {@link BUILTIN_ADAPTERS}) or an npm package name resolved from
 * `cwd` (the gateway's working directory), whose module exports `switchyardProvider` (or a default export that is, or
 * holds, one). A built-in name is first looked up in the module's `switchyardProviders` record (factories by name). Throws ConfigError naming the package when it is not installed,
 * exports no factory, or implements another adapter spec version than {@link ADAPTER_SPEC_VERSION}.
 */
export async function loadProviderFactory(adapter: string, cwd = process.cwd()): Promise<ProviderFactory> {
  const packageName = BUILTIN_ADAPTERS[adapter] ?? adapter;
  const module = await importPackage(packageName, cwd);
  const defaultExport = module.default as Record<string, unknown> | undefined;
  const named = BUILTIN_ADAPTERS[adapter]
    ? (module.switchyardProviders as Record<string, unknown> | undefined)?.[adapter]
    : undefined;
  const factory = named ?? module.switchyardProvider ?? defaultExport?.switchyardProvider ?? defaultExport;
  if (!isFactory(factory)) {
    throw new ConfigError(
      `package '${packageName}' does not export a Switchyard provider factory (expected an export named 'switchyardProvider' with settingsSchema and create()).`,
    );
  }
  if (factory.specVersion !== ADAPTER_SPEC_VERSION) {
    throw new ConfigError(
      `package '${packageName}' implements adapter spec version ${String(factory.specVersion)}, but this gateway supports version ${ADAPTER_SPEC_VERSION}. Upgrade the package or the gateway.`,
    );
  }
  return factory;
}
