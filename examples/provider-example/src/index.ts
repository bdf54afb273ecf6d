import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createCohere } from './create-cohere.js';

export { type CohereOptions, createCohere } from './create-cohere.js';
export { convertToCohereChatRequest } from './convert-to-cohere-chat-request.js';
export { mapCohereFinishReason } from './map-cohere-finish-reason.js';

/** The `providers.<name>` block for `adapter: switchyard-provider-example`. */
export const cohereSettingsSchema = z.strictObject({
  api_key: z.string().min(1),
  base_url: z.url().optional(),
});

/** What the gateway loads by package name: `adapter: switchyard-provider-example`. */
export const switchyardProvider: ProviderFactory<z.infer<typeof cohereSettingsSchema>> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'switchyard-provider-example',
  settingsSchema: cohereSettingsSchema,
  apiKeyEnv: ['COHERE_API_KEY'],
  create: (settings) => createCohere({ apiKey: settings.api_key, baseURL: settings.base_url }),
};
