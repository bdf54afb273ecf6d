import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createGoogle } from './create-google.js';

/** The `providers.<name>` block for `adapter: google` (snake_case YAML keys). */
export const googleSettingsSchema = z.strictObject({
  api_key: z.string().min(1),
  base_url: z.url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

/** Settings of the Gemini adapter as written in config. */
export type GoogleSettings = z.infer<typeof googleSettingsSchema>;

/** The factory the gateway loads for `adapter: google`; enabled from `GEMINI_API_KEY` or `GOOGLE_API_KEY`. */
export const switchyardProvider: ProviderFactory<GoogleSettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'google',
  settingsSchema: googleSettingsSchema,
  apiKeyEnv: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'],
  create: (settings) =>
    createGoogle({ apiKey: settings.api_key, baseURL: settings.base_url, headers: settings.headers }),
};
