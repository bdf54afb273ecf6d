import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { DEFAULT_AZURE_API_VERSION, createAzure } from './create-azure.js';

/**
 * The `providers.<name>` block for `adapter: azure` (unknown keys are rejected at startup):
 * ```yaml
 * providers:
 *   azure:
 *     adapter: azure
 *     api_key: ${AZURE_OPENAI_API_KEY}                 # or azure_ad_token: ${AZURE_AD_TOKEN} (Entra ID bearer token)
 *     base_url: https://my-resource.openai.azure.com   # the resource endpoint (required)
 *     api_version: "2024-10-21"                        # default 2024-10-21
 *     headers: { x-ms-useragent: my-app }              # optional
 *     realtime_api_version: 2025-04-01-preview         # /v1/realtime sessions (default 2025-04-01-preview)
 *     timeouts: { headers_ms: 60000, body_idle_ms: 30000 }
 * models:
 *   - { id: gpt-4o, provider: azure, upstream: my-gpt4o-deployment }   # upstream = deployment name
 * ```
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/reference
 */
export const azureSettingsSchema = z
  .strictObject({
    base_url: z.url(),
    api_key: z.string().min(1).optional(),
    azure_ad_token: z.string().min(1).optional(),
    api_version: z.string().min(1).default(DEFAULT_AZURE_API_VERSION),
    headers: z.record(z.string(), z.string()).optional(),
    /** The `api-version` of `/v1/realtime` sessions (default 2025-04-01-preview). */
    realtime_api_version: z.string().min(1).optional(),
    timeouts: z
      .strictObject({
        headers_ms: z.number().int().positive().optional(),
        body_idle_ms: z.number().int().positive().optional(),
      })
      .optional(),
  })
  .refine((s) => s.api_key !== undefined || s.azure_ad_token !== undefined, {
    message: 'api_key or azure_ad_token is required',
    path: ['api_key'],
  });

/** Settings of the Azure adapter as written in config. */
export type AzureSettings = z.infer<typeof azureSettingsSchema>;

/**
 * The factory the gateway loads for `adapter: azure`. Without a config file it is enabled by `AZURE_OPENAI_API_KEY`
 * plus `AZURE_OPENAI_ENDPOINT` (and `OPENAI_API_VERSION` for another api-version).
 */
export const switchyardProvider: ProviderFactory<AzureSettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'azure',
  settingsSchema: azureSettingsSchema,
  settingsFromEnv: (env) =>
    env.AZURE_OPENAI_API_KEY && env.AZURE_OPENAI_ENDPOINT
      ? {
          api_key: env.AZURE_OPENAI_API_KEY,
          base_url: env.AZURE_OPENAI_ENDPOINT,
          ...(env.OPENAI_API_VERSION ? { api_version: env.OPENAI_API_VERSION } : {}),
        }
      : undefined,
  create: (settings) =>
    createAzure({
      baseURL: settings.base_url,
      apiKey: settings.api_key,
      azureADToken: settings.azure_ad_token,
      apiVersion: settings.api_version,
      headers: settings.headers,
      realtimeApiVersion: settings.realtime_api_version,
      timeouts: settings.timeouts && {
        headersMs: settings.timeouts.headers_ms,
        bodyIdleMs: settings.timeouts.body_idle_ms,
      },
    }),
};
