import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createAnthropic } from './create-anthropic.js';

const tokens = z.number().int().positive();
const milliseconds = z.number().int().positive();

/**
 * The `providers.<name>` block for `adapter: anthropic` (snake_case YAML keys; unknown keys are rejected at startup):
 * ```yaml
 * providers:
 *   anthropic:
 *     adapter: anthropic
 *     api_key: ${ANTHROPIC_API_KEY}
 *     base_url: https://api.anthropic.com      # default; a trailing /v1 is accepted
 *     version: "2023-06-01"                    # anthropic-version header (default)
 *     max_tokens: 4096                         # sent when a request has none; default 4096
 *     # or per upstream model id (exact id, else the longest prefix), with `default` for the rest:
 *     # max_tokens: { default: 4096, claude-sonnet-4-5: 16384 }
 *     headers: { anthropic-beta: ... }
 *     timeouts: { headers_ms: 60000, body_idle_ms: 30000 }
 * ```
 * @see https://docs.anthropic.com/en/api/getting-started#authentication
 */
export const anthropicSettingsSchema = z.strictObject({
  api_key: z.string().min(1),
  base_url: z.url().optional(),
  /** `anthropic-version` header. */
  version: z.string().min(1).optional(),
  /** `max_tokens` (tokens) when a request has none: a number for all models, or `{ default, <model id>: n }`. */
  max_tokens: z.union([tokens, z.record(z.string(), tokens)]).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** Per-call upstream limits, ms (`createAnthropic`'s `timeouts`); the connect timeout is `routing.timeouts.connect_ms`. */
  timeouts: z.strictObject({ headers_ms: milliseconds.optional(), body_idle_ms: milliseconds.optional() }).optional(),
  /** Largest `n` (one upstream call per choice); above it requests get 400 naming `n`. Default 8. */
  max_n: z.number().int().min(1).max(128).optional(),
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
    const { default: defaultMaxTokens, ...maxTokensByModel } =
      typeof maxTokens === 'object' ? maxTokens : { default: maxTokens };
    return createAnthropic({
      apiKey: settings.api_key,
      baseURL: settings.base_url,
      version: settings.version,
      headers: settings.headers,
      defaultMaxTokens,
      maxTokensByModel,
      maxN: settings.max_n,
      timeouts: settings.timeouts && {
        headersMs: settings.timeouts.headers_ms,
        bodyIdleMs: settings.timeouts.body_idle_ms,
      },
    });
  },
};
