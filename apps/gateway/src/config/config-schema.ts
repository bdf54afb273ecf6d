import { z } from 'zod';

/** `providers.<name>`: the adapter (built-in name or npm package) plus the adapter's own settings (snake_case). */
export const providerConfigSchema = z.looseObject({
  adapter: z.string().min(1),
});

/** One entry of `models`: what clients send (`id`), which provider serves it, the upstream id and the price. */
export const modelConfigSchema = z.strictObject({
  id: z.string().min(1),
  provider: z.string().min(1),
  upstream: z.string().min(1).optional(),
  /** USD per million tokens. */
  price: z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() }).optional(),
});

/**
 * The gateway's YAML config (after `${VAR}` substitution):
 * `server {host, port, body_limit}`, `keys` (gateway-issued bearer keys), `providers`, `models`, `log {level}`.
 */
export const gatewayConfigSchema = z.strictObject({
  server: z
    .strictObject({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(8787),
      /** Largest JSON body accepted, bytes or a size string such as `20mb`. */
      body_limit: z.union([z.number().int().positive(), z.string().min(1)]).default('20mb'),
    })
    .prefault({}),
  keys: z.array(z.string().min(16, 'gateway keys must be at least 16 characters')).min(1, 'at least one gateway key is required'),
  providers: z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'provider names use letters, digits, _ . -'), providerConfigSchema),
  models: z.array(modelConfigSchema).default([]),
  log: z.strictObject({ level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info') }).prefault({}),
});

/** The validated gateway config. */
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
/** One validated provider block. */
export type ProviderConfig = z.infer<typeof providerConfigSchema>;
