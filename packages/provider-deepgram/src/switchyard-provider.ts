import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createDeepgram } from './create-deepgram.js';

/**
 * The `providers.<name>` block for `adapter: deepgram`:
 * ```yaml
 * providers:
 *   deepgram:
 *     adapter: deepgram
 *     api_key: ${DEEPGRAM_API_KEY}
 *     base_url: https://api.deepgram.com   # optional
 *     timeouts: { headers_ms: 120000 }      # optional, ms
 * ```
 */
export const deepgramSettingsSchema = z.strictObject({
  api_key: z.string().min(1),
  base_url: z.url().optional(),
  timeouts: z
    .strictObject({
      headers_ms: z.number().int().positive().optional(),
      body_idle_ms: z.number().int().positive().optional(),
    })
    .optional(),
});

/** Settings of the Deepgram adapter as written in config. */
export type DeepgramSettings = z.infer<typeof deepgramSettingsSchema>;

/** The factory the gateway loads for `adapter: deepgram`; enabled from `DEEPGRAM_API_KEY` when no config file is given. */
export const switchyardProvider: ProviderFactory<DeepgramSettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'deepgram',
  settingsSchema: deepgramSettingsSchema,
  apiKeyEnv: ['DEEPGRAM_API_KEY'],
  create: (settings) =>
    createDeepgram({
      apiKey: settings.api_key,
      baseURL: settings.base_url,
      timeouts: settings.timeouts && {
        headersMs: settings.timeouts.headers_ms,
        bodyIdleMs: settings.timeouts.body_idle_ms,
      },
    }),
};
