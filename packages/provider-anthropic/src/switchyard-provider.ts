import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createAnthropic } from './create-anthropic.js';

const tokens = z.number().int().positive();

/** The `providers.<name>` block for `adapter: anthropic` (snake_case YAML keys). */
export const anthropicSettingsSchema = z.strictObject({
  api_key: z.string().min(1),
  base_url: z.url().optional(),
  /** `anthropic-version` header. */
  version: z.string().min(1).optional(),
  /** `max_tokens` when a request has none: a number for all models, or `{ default, <model id>: n }`. */
  max_tokens: z.union([tokens, z.record(z.string(), tokens)]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

/** Settings of the Anthropic adapter as written in config. */
export type AnthropicSettings = z.infer<typeof anthropicSettingsSchema>;

/** The factory the gateway loads for `adapter: anthropic`; enabled from `ANTHROPIC_API_KEY` when no config file is given. */
export const switchyardProvider: ProviderFactory<AnthropicSettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'anthropic',
  settingsSchema: anthropicSettingsSchema,
  apiKeyEnv: ['ANTHROPIC_API_KEY'],
  create(settings) {
    const maxTokens = settings.max_tokens;
    const { default: fallback, ...byModel } = typeof maxTokens === 'object' ? maxTokens : {};
    return createAnthropic({
      apiKey: settings.api_key,
      baseURL: settings.base_url,
      version: settings.version,
      headers: settings.headers,
      maxTokens: typeof maxTokens === 'number' ? { fallback: maxTokens } : { fallback, byModel },
    });
  },
};
