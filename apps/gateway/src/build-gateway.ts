import { type Gateway, createGateway } from '@switchyard/core';
import type { GatewayConfig } from './config/config-schema.js';
import { createProviders } from './providers/create-providers.js';

/** Options of {@link buildGateway}. */
export interface BuildGatewayOptions {
  /** Where third-party adapter packages are resolved from. Default: `process.cwd()`. */
  cwd?: string;
  /** Called with non-fatal background failures (a provider's model list). */
  onBackgroundError?: (error: unknown, provider: string) => void;
}

/** Creates the framework-free {@link Gateway} from a validated config. Throws ConfigError on provider problems. */
export async function buildGateway(config: GatewayConfig, options: BuildGatewayOptions = {}): Promise<Gateway> {
  const providers = await createProviders(config.providers, options.cwd);
  return createGateway({ providers, models: config.models, keys: config.keys, onBackgroundError: options.onBackgroundError });
}
