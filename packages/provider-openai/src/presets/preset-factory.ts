import { ADAPTER_SPEC_VERSION, type ProviderFactory } from '@switchyard/core';
import { z } from 'zod';
import { createOpenAI } from '../create-openai.js';
import type { OpenAICompatiblePreset } from './openai-compatible-preset.js';
import { OPENAI_COMPATIBLE_PRESETS } from './openai-compatible-presets.js';

/** Settings of a preset as written in config: `api_key`, `base_url`, `headers`, `timeouts` and the preset's header keys. */
export type PresetSettings = {
  api_key?: string;
  base_url?: string;
  headers?: Record<string, string>;
  timeouts?: { headers_ms?: number; body_idle_ms?: number };
  [headerSetting: string]: unknown;
};

/** A local server's base URL given without a path (`http://localhost:11434`) gets its OpenAI-compatible `/v1`. */
function withVersionPath(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.pathname === '/' ? `${url.replace(/\/+$/, '')}/v1` : url;
  } catch {
    return url; // settingsSchema reports the bad URL with the provider's name.
  }
}

/**
 * The {@link ProviderFactory} of one preset (`adapter: groq`). Its config block:
 * ```yaml
 * providers:
 *   groq:
 *     adapter: groq
 *     api_key: ${GROQ_API_KEY}     # required unless the preset is a local server (ollama, vllm, lmstudio)
 *     base_url: https://...        # default: the preset's
 *     headers: { X-Extra: value }  # sent on every request
 *     timeouts: { headers_ms: 60000, body_idle_ms: 30000 }
 *     # openrouter only: http_referer: https://myapp.example (HTTP-Referer), x_title: My App (X-Title)
 * ```
 * With no config file, it is enabled by its key variable (e.g. `GROQ_API_KEY`, base URL from `GROQ_BASE_URL`), or for a
 * keyless local server by its base URL variable (`OLLAMA_BASE_URL`, `VLLM_BASE_URL`, `LMSTUDIO_BASE_URL`; a URL
 * without a path gets `/v1`).
 */
export function presetFactory(preset: OpenAICompatiblePreset): ProviderFactory<PresetSettings> {
  const headerKeys = Object.fromEntries(
    Object.keys(preset.headerSettings ?? {}).map((key) => [key, z.string().min(1).optional()]),
  );
  const apiKey = preset.apiKeyEnv
    ? z.string().min(1, `${preset.title} needs an API key (api_key, e.g. \${${preset.apiKeyEnv}})`)
    : z.string().min(1).optional();
  const settingsSchema = z.strictObject({
    api_key: apiKey,
    base_url: z.url().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    timeouts: z
      .strictObject({
        headers_ms: z.number().int().positive().optional(),
        body_idle_ms: z.number().int().positive().optional(),
      })
      .optional(),
    ...headerKeys,
  }) as unknown as z.ZodType<PresetSettings>;
  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: preset.name,
    settingsSchema,
    ...(preset.apiKeyEnv ? { apiKeyEnv: [preset.apiKeyEnv] } : {}),
    settingsFromEnv(env) {
      const baseURL = env[preset.baseURLEnv];
      if (preset.apiKeyEnv) {
        const key = env[preset.apiKeyEnv];
        return key ? { api_key: key, ...(baseURL ? { base_url: baseURL } : {}) } : undefined;
      }
      return baseURL ? { base_url: withVersionPath(baseURL) } : undefined;
    },
    create(settings) {
      const headers: Record<string, string> = {};
      for (const [key, header] of Object.entries(preset.headerSettings ?? {})) {
        const value = settings[key];
        if (typeof value === 'string') headers[header] = value;
      }
      return createOpenAI({
        adapter: preset.name,
        apiKey: settings.api_key,
        baseURL: settings.base_url ?? preset.baseURL,
        headers: { ...headers, ...settings.headers },
        operations: preset.operations,
        quirks: preset.quirks,
        moderation: preset.moderation,
        timeouts: settings.timeouts && {
          headersMs: settings.timeouts.headers_ms,
          bodyIdleMs: settings.timeouts.body_idle_ms,
        },
      });
    },
  };
}

/**
 * Every preset's factory by `adapter:` name (`groq`, `mistral`, ...), as the gateway loads built-in preset names from
 * this package.
 */
export const switchyardProviders: Readonly<Record<string, ProviderFactory<PresetSettings>>> = Object.fromEntries(
  OPENAI_COMPATIBLE_PRESETS.map((preset) => [preset.name, presetFactory(preset)]),
);
