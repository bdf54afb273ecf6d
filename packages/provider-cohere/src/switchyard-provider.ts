import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { COHERE_INPUT_TYPES } from './cohere-embeddings.js';
import { createCohere } from './create-cohere.js';

/**
 * The `providers.<name>` block for `adapter: cohere`:
 * ```yaml
 * providers:
 *   cohere:
 *     adapter: cohere
 *     api_key: ${COHERE_API_KEY}
 *     input_type: search_document   # embeddings' input_type when a request has none (default search_document)
 *     base_url: https://api.cohere.com
 * ```
 */
export const cohereSettingsSchema = z.strictObject({
  api_key: z.string().min(1),
  base_url: z.url().optional(),
  input_type: z.enum(COHERE_INPUT_TYPES).optional(),
  timeouts: z
    .strictObject({
      headers_ms: z.number().int().positive().optional(),
      body_idle_ms: z.number().int().positive().optional(),
    })
    .optional(),
});

/** Settings of the Cohere adapter as written in config. */
export type CohereSettings = z.infer<typeof cohereSettingsSchema>;

/** The factory the gateway loads for `adapter: cohere`; enabled from `COHERE_API_KEY` (or `CO_API_KEY`) when no config file is given. */
export const switchyardProvider: ProviderFactory<CohereSettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'cohere',
  settingsSchema: cohereSettingsSchema,
  apiKeyEnv: ['COHERE_API_KEY', 'CO_API_KEY'],
  create: (settings) =>
    createCohere({
      apiKey: settings.api_key,
      baseURL: settings.base_url,
      inputType: settings.input_type,
      timeouts: settings.timeouts && {
        headersMs: settings.timeouts.headers_ms,
        bodyIdleMs: settings.timeouts.body_idle_ms,
      },
    }),
};
