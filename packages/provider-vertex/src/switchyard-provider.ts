import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createVertex } from './create-vertex.js';
import { createVertexTokenSource, readCredentials } from './vertex-token-source.js';

/**
 * The `providers.<name>` block for `adapter: vertex` (unknown keys are rejected at startup):
 * ```yaml
 * providers:
 *   vertex:
 *     adapter: vertex
 *     project: my-project
 *     location: us-central1                    # or global
 *     credentials: ./service-account.json      # a key file path or its JSON; none: Application Default Credentials
 *     base_url: https://us-central1-aiplatform.googleapis.com   # optional: the regional endpoint
 *     max_tokens: 4096                         # optional: sent to Claude when a request has none
 * models:
 *   - { id: gemini-vertex, provider: vertex, upstream: gemini-2.5-flash }
 *   - { id: claude-vertex, provider: vertex, upstream: claude-sonnet-4@20250514 }   # claude-*: Anthropic's publisher
 * ```
 * @see https://cloud.google.com/vertex-ai/docs/authentication
 */
export const vertexSettingsSchema = z.strictObject({
  project: z.string().min(1),
  location: z
    .string()
    .regex(/^(global|[a-z]+-[a-z]+\d+)$/, 'a Google Cloud region such as us-central1, or global')
    .default('us-central1'),
  credentials: z.string().min(1).optional(),
  base_url: z.url().optional(),
  max_tokens: z.number().int().positive().optional(),
  timeouts: z
    .strictObject({
      headers_ms: z.number().int().positive().optional(),
      body_idle_ms: z.number().int().positive().optional(),
    })
    .optional(),
});

/** Settings of the Vertex adapter as written in config. */
export type VertexSettings = z.infer<typeof vertexSettingsSchema>;

/**
 * The factory the gateway loads for `adapter: vertex`. Without a config file it is enabled by
 * `GOOGLE_APPLICATION_CREDENTIALS` (the key file) + `VERTEX_PROJECT` + `VERTEX_LOCATION`.
 * Creating it reads the key file: a missing or malformed one is a startup error.
 */
export const switchyardProvider: ProviderFactory<VertexSettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'vertex',
  settingsSchema: vertexSettingsSchema,
  settingsFromEnv: (env) =>
    env.GOOGLE_APPLICATION_CREDENTIALS && env.VERTEX_PROJECT && env.VERTEX_LOCATION
      ? { project: env.VERTEX_PROJECT, location: env.VERTEX_LOCATION, credentials: env.GOOGLE_APPLICATION_CREDENTIALS }
      : undefined,
  create: (settings) =>
    createVertex({
      project: settings.project,
      location: settings.location,
      tokens: createVertexTokenSource(settings.credentials ? readCredentials(settings.credentials) : undefined),
      baseURL: settings.base_url,
      defaultMaxTokens: settings.max_tokens,
      timeouts: settings.timeouts && {
        headersMs: settings.timeouts.headers_ms,
        bodyIdleMs: settings.timeouts.body_idle_ms,
      },
    }),
};
