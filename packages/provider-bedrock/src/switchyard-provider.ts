import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createBedrock } from './create-bedrock.js';

/** An empty string counts as absent (`${AWS_SESSION_TOKEN:-}` with the variable unset). */
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().min(1).optional());

/**
 * The `providers.<name>` block for `adapter: bedrock` (unknown keys are rejected at startup):
 * ```yaml
 * providers:
 *   bedrock:
 *     adapter: bedrock
 *     region: us-east-1
 *     access_key_id: ${AWS_ACCESS_KEY_ID}
 *     secret_access_key: ${AWS_SECRET_ACCESS_KEY}
 *     session_token: ${AWS_SESSION_TOKEN:-}        # temporary credentials only
 *     base_url: https://bedrock-runtime.us-east-1.amazonaws.com   # optional: the runtime endpoint
 *     control_base_url: https://bedrock.us-east-1.amazonaws.com   # optional: the model-list endpoint
 * models:
 *   - { id: claude-bedrock, provider: bedrock, upstream: anthropic.claude-3-5-sonnet-20241022-v2:0 }
 * ```
 * @see https://docs.aws.amazon.com/bedrock/latest/userguide/inference-invoke.html
 */
export const bedrockSettingsSchema = z.strictObject({
  region: z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'an AWS region such as us-east-1'),
  access_key_id: z.string().min(1),
  secret_access_key: z.string().min(1),
  session_token: optionalString,
  base_url: z.url().optional(),
  control_base_url: z.url().optional(),
  timeouts: z
    .strictObject({
      headers_ms: z.number().int().positive().optional(),
      body_idle_ms: z.number().int().positive().optional(),
    })
    .optional(),
});

/** Settings of the Bedrock adapter as written in config. */
export type BedrockSettings = z.infer<typeof bedrockSettingsSchema>;

/**
 * The factory the gateway loads for `adapter: bedrock`. Without a config file it is enabled by `AWS_ACCESS_KEY_ID` +
 * `AWS_SECRET_ACCESS_KEY` + `AWS_REGION` (or `AWS_DEFAULT_REGION`), with `AWS_SESSION_TOKEN` when set.
 */
export const switchyardProvider: ProviderFactory<BedrockSettings> = {
  specVersion: ADAPTER_SPEC_VERSION,
  adapter: 'bedrock',
  settingsSchema: bedrockSettingsSchema,
  settingsFromEnv: (env) => {
    const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
    if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY || !region) return undefined;
    return {
      region,
      access_key_id: env.AWS_ACCESS_KEY_ID,
      secret_access_key: env.AWS_SECRET_ACCESS_KEY,
      ...(env.AWS_SESSION_TOKEN ? { session_token: env.AWS_SESSION_TOKEN } : {}),
    };
  },
  create: (settings) =>
    createBedrock({
      region: settings.region,
      credentials: {
        accessKeyId: settings.access_key_id,
        secretAccessKey: settings.secret_access_key,
        sessionToken: settings.session_token,
      },
      baseURL: settings.base_url,
      controlBaseURL: settings.control_base_url,
      timeouts: settings.timeouts && {
        headersMs: settings.timeouts.headers_ms,
        bodyIdleMs: settings.timeouts.body_idle_ms,
      },
    }),
};
