import type { z } from 'zod';
import type { ADAPTER_SPEC_VERSION } from './adapter-spec-version.js';
import type { ProviderAdapter } from './provider-adapter.js';

/**
 * What a provider package exports (as `switchyardProvider`) so that the gateway can build adapters from config:
 * `providers.<name>: { adapter: <package or built-in name>, ...settings }`. The settings block (without `adapter`)
 * is validated with `settingsSchema`; its errors are reported at startup with the provider's name.
 */
export interface ProviderFactory<Settings = unknown> {
  /** The contract version: {@link ADAPTER_SPEC_VERSION}. */
  readonly specVersion: typeof ADAPTER_SPEC_VERSION;
  /** The adapter's kind, e.g. `openai`. */
  readonly adapter: string;
  /** zod schema of the provider's config block (snake_case YAML keys such as `api_key`, `base_url`). */
  readonly settingsSchema: z.ZodType<Settings>;
  /** Environment variables holding an API key; when one is set and no config file is given, the provider is enabled. */
  readonly apiKeyEnv?: readonly string[];
  /**
   * For providers configured by more than one variable (a cloud's endpoint, region or credentials file): builds the
   * settings block from the environment when no config file is given, or returns undefined when the variables it
   * needs are not all set. Used instead of `apiKeyEnv` when present; the result is validated with `settingsSchema`.
   */
  readonly settingsFromEnv?: (env: Readonly<Record<string, string | undefined>>) => Record<string, unknown> | undefined;
  /** Builds the adapter from validated settings. */
  create(settings: Settings): ProviderAdapter;
}
