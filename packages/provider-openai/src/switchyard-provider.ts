import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createOpenAI } from './create-openai.js';

/** The `providers.<name>` block for `adapter: openai` (snake_case YAML keys). */
export const openAISettingsSchema = z.strictObject({
  api_key: z.string().min(1).optional(),
  base_url: z.url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  organization: z.string().optional(),
  project: z.string().optional(),
  /** Upstream timeouts, ms. */
  timeouts: z.strictObject({ connect_ms: z.number().int().positive().optional(), headers_ms: z.number().int().positive().optional(), body_idle_ms: z.number().int().positive().optional() }).optional(),
});

/** Settings of the OpenAI adapter as written in config. */
export type OpenAISettings = z.infer<typeof openAISettingsSchema>;

/** The factory the gateway loads for `adapter: openai`; enabled from `OPENAI_API_KEY` when no config file is given. */
export const switchyardProvider: ProviderFactory<OpenAISettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'openai',
  settingsSchema: openAISettingsSchema,
  apiKeyEnv: ['OPENAI_API_KEY'],
  create: (settings) =>
    createOpenAI({
      apiKey: settings.api_key,
      baseURL: settings.base_url,
      headers: settings.headers,
      organization: settings.organization,
      project: settings.project,
      timeouts: settings.timeouts && { connectMs: settings.timeouts.connect_ms, headersMs: settings.timeouts.headers_ms, bodyIdleMs: settings.timeouts.body_idle_ms },
    }),
};
