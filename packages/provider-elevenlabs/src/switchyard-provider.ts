import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createElevenLabs } from './create-elevenlabs.js';

/**
 * The `providers.<name>` block for `adapter: elevenlabs`:
 * ```yaml
 * providers:
 *   elevenlabs:
 *     adapter: elevenlabs
 *     api_key: ${ELEVENLABS_API_KEY}
 *     voices: { alloy: 21m00Tcm4TlvDq8ikWAM, nova: EXAVITQu4vr4xnSDxMaL }   # OpenAI voice name -> ElevenLabs voice id
 *     base_url: https://api.elevenlabs.io   # optional
 * ```
 */
export const elevenLabsSettingsSchema = z.strictObject({
  api_key: z.string().min(1),
  base_url: z.url().optional(),
  voices: z.record(z.string(), z.string().min(1)).optional(),
  timeouts: z
    .strictObject({
      headers_ms: z.number().int().positive().optional(),
      body_idle_ms: z.number().int().positive().optional(),
    })
    .optional(),
});

/** Settings of the ElevenLabs adapter as written in config. */
export type ElevenLabsSettings = z.infer<typeof elevenLabsSettingsSchema>;

/** The factory the gateway loads for `adapter: elevenlabs`; enabled from `ELEVENLABS_API_KEY` when no config file is given. */
export const switchyardProvider: ProviderFactory<ElevenLabsSettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'elevenlabs',
  settingsSchema: elevenLabsSettingsSchema,
  apiKeyEnv: ['ELEVENLABS_API_KEY'],
  create: (settings) =>
    createElevenLabs({
      apiKey: settings.api_key,
      baseURL: settings.base_url,
      voices: settings.voices,
      timeouts: settings.timeouts && {
        headersMs: settings.timeouts.headers_ms,
        bodyIdleMs: settings.timeouts.body_idle_ms,
      },
    }),
};
