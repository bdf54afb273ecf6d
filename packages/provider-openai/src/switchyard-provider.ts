import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createOpenAI } from './create-openai.js';

/**
 * The `providers.<name>` block for `adapter: openai` (snake_case YAML keys; unknown keys are rejected at startup):
 * ```yaml
 * providers:
 *   groq:
 *     adapter: openai
 *     api_key: ${GROQ_API_KEY}                  # optional: local servers (Ollama, vLLM, LM Studio) need none
 *     base_url: https://api.groq.com/openai/v1  # default https://api.openai.com/v1
 *     headers: { HTTP-Referer: https://example.com }
 *     organization: org-...                     # OpenAI-Organization header
 *     project: proj_...                         # OpenAI-Project header
 *     timeouts: { headers_ms: 60000, body_idle_ms: 30000 }
 *     responses: native                         # /v1/responses to the upstream's /responses (default translate)
 *     realtime_beta: true                       # OpenAI-Beta: realtime=v1 on /v1/realtime sessions (default false)
 * ```
 * @see https://platform.openai.com/docs/api-reference/authentication
 */
export const openAISettingsSchema = z.strictObject({
  api_key: z.string().min(1).optional(),
  base_url: z.url().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  organization: z.string().optional(),
  project: z.string().optional(),
  /** Per-call upstream limits, ms (`createOpenAI`'s `timeouts`); the connect timeout is `routing.timeouts.connect_ms`. */
  timeouts: z
    .strictObject({
      headers_ms: z.number().int().positive().optional(),
      body_idle_ms: z.number().int().positive().optional(),
    })
    .optional(),
  /**
   * How `/v1/responses` reaches this provider: `translate` (default) through chat completions, so that every gateway
   * feature (fallbacks to any provider, stored responses) behaves the same for all providers; `native` passes the
   * request to the upstream's own `POST /responses` (OpenAI: built-in tools, reasoning items kept), falling back only
   * to deployments that are native too.
   */
  responses: z.enum(['native', 'translate']).optional(),
  /** Send `OpenAI-Beta: realtime=v1` on `/v1/realtime` sessions (upstreams on the beta Realtime interface). Default false. */
  realtime_beta: z.boolean().optional(),
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
      timeouts: settings.timeouts && {
        headersMs: settings.timeouts.headers_ms,
        bodyIdleMs: settings.timeouts.body_idle_ms,
      },
      responses: settings.responses,
      realtimeBeta: settings.realtime_beta,
    }),
};
