import { z } from 'zod';

/**
 * Zod schemas of the gateway's own answers (admin API, `/v1/usage`) that have no schema elsewhere, for the OpenAPI
 * document only (the gateway builds these answers itself; nothing parses them).
 */
const period = z.enum(['day', 'week', 'month', 'total']);

/** The limit fields keys, teams and organisations share. */
const limitFields = {
  models: z.array(z.string()).nullable(),
  rpm_limit: z.number().int().nullable(),
  tpm_limit: z.number().int().nullable(),
  concurrency_limit: z.number().int().nullable().meta({ description: 'Calls in flight at once; null = unlimited.' }),
  budget_usd: z.number().nullable(),
  budget_period: period,
  budget_started_at: z
    .string()
    .nullable()
    .meta({ description: 'When the budget was set or its period changed: spend before it does not count.' }),
  end_user_budget_usd: z.number().nullable().meta({
    description: "What each end user (OpenAI's user or safety_identifier) may spend per end_user_budget_period.",
  }),
  end_user_budget_period: period.nullable(),
  end_user_rpm_limit: z.number().int().nullable(),
  session_budget_usd: z.number().nullable().meta({ description: 'What each agent session may spend in all.' }),
  session_rpm_limit: z.number().int().nullable(),
  spend_usd: z.number().optional().meta({ description: 'Spend in the current budget window (lists and GET of one).' }),
};

const keyFields = {
  id: z.string(),
  name: z.string(),
  key_prefix: z.string(),
  ...limitFields,
  team_id: z.string().nullable().meta({ description: "The key's team, whose limits apply too." }),
  expires_at: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  previous_key_prefix: z
    .string()
    .nullable()
    .meta({ description: 'Display prefix of the secret the last rotation replaced; null when it is no longer valid.' }),
  previous_key_expires_at: z
    .string()
    .nullable()
    .meta({ description: "ISO-8601 end of the replaced secret's grace period." }),
  rotated_at: z.string().nullable().meta({ description: 'ISO-8601 of the last rotation; null when never rotated.' }),
};

/** A virtual key as the admin API shows it (no secret, no hash); `spend_usd` in the current budget window. */
export const virtualKeyViewSchema = z
  .looseObject(keyFields)
  .meta({ description: 'A virtual key (no secret, no hash).' });

/** `POST /admin/keys` and `POST /admin/keys/{id}/rotate` answer: the key plus its (new) secret, shown once. */
export const createdKeySchema = z.looseObject({
  ...keyFields,
  key: z.string().meta({ description: 'The secret (sk-sy-…), shown only here.' }),
});

/** An organisation as the admin API shows it. */
export const organizationSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  ...limitFields,
  metadata: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
});

/** A team as the admin API shows it. */
export const teamSchema = z.looseObject({
  ...organizationSchema.shape,
  organization_id: z
    .string()
    .nullable()
    .meta({ description: "The team's organisation, whose limits apply to the team's keys too." }),
});

/** One group of a usage report. */
export const usageTotalsSchema = z.looseObject({
  group: z.string().optional(),
  requests: z.number().int(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
  cost_usd: z.number(),
  cache_hits: z
    .number()
    .int()
    .meta({ description: 'Requests answered from the response cache (counted in requests; no tokens, cost 0).' }),
});

/** One ledger row (`GET /admin/requests`). */
export const usageRowSchema = z.looseObject({
  request_id: z.string(),
  key_id: z.string(),
  model: z.string(),
  provider: z.string().nullable(),
  upstream_model: z.string().nullable(),
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  cost_usd: z.number(),
  price_source: z
    .enum(['config', 'catalog', 'none'])
    .nullable()
    .optional()
    .meta({ description: 'Where the price came from: config, catalog (bundled price catalogue) or none (cost 0).' }),
  latency_ms: z.number(),
  ttfb_ms: z.number().nullable(),
  status: z.number().int(),
  stream: z.boolean(),
  created_at: z.number().int(),
  cache_hit: z
    .boolean()
    .optional()
    .meta({ description: 'True when the answer came from the response cache (no upstream call, no tokens, cost 0).' }),
  hedged: z
    .boolean()
    .optional()
    .meta({ description: 'A hedged request that started a second attempt (hedge); tokens and cost count both.' }),
  stream_failover: z
    .boolean()
    .optional()
    .meta({ description: 'The stream broke mid-way and continued on another deployment (stream_failover).' }),
  team_id: z.string().nullable().optional().meta({ description: "The key's team at the time of the call." }),
  organization_id: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The organisation of the key's team at the time of the call." }),
  end_user: z
    .string()
    .nullable()
    .optional()
    .meta({ description: 'The end user the client named (user or safety_identifier).' }),
});

/** `GET /admin/models` entries. */
export const configuredModelSchema = z.looseObject({
  id: z.string(),
  strategy: z.string(),
  fallbacks: z.array(z.string()),
  max_retries: z.number().int(),
  timeouts: z.record(z.string(), z.number()),
  price: z.looseObject({ input: z.number(), output: z.number() }).nullable(),
  targets: z.array(
    z.looseObject({ deployment: z.string(), provider: z.string(), upstream_model: z.string(), weight: z.number() }),
  ),
});

/** `GET /admin/health` entries. */
export const deploymentHealthSchema = z.looseObject({
  deployment: z.string(),
  provider: z.string(),
  upstream_model: z.string(),
  models: z.array(z.string()),
  in_flight: z.number().int(),
  latency_ms_avg: z.number().nullable(),
  consecutive_failures: z.number().int(),
  cooling_down: z.boolean(),
  cooling_down_until: z.string().nullable(),
});

/** `{object: "list", data: [...]}`. */
export const listOf = (item: z.ZodType) => z.object({ object: z.literal('list'), data: z.array(item) });

/** One audit log entry (`GET /admin/audit`). */
export const auditEntrySchema = z.looseObject({
  id: z.string(),
  created_at: z.string().meta({ description: 'ISO-8601.' }),
  actor: z
    .string()
    .meta({ description: 'master_key, oidc:<email or subject>, or what a failed sign-in claimed to be.' }),
  action: z
    .string()
    .meta({ description: 'key.create, key.update, key.rotate, key.revoke, sign_in, sign_in.failed, sign_out…' }),
  target: z.string().nullable(),
  source_address: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});
