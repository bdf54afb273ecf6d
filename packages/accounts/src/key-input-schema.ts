import { z } from 'zod';

const limit = z.number().int().positive().nullable();

/**
 * `POST /admin/keys` body: `name`, and optionally `models` (ids or globs), `rpm_limit` (requests/min), `tpm_limit`
 * (tokens/min), `concurrency_limit` (calls in flight at once), `budget_usd` (USD per `budget_period`), `budget_period` (`day` | `month` | `total`, default `total`),
 * `expires_at` (ISO-8601), `metadata` (object). Unknown fields are rejected.
 */
export const createKeyInputSchema = z.strictObject({
  name: z.string().min(1).max(200),
  models: z.array(z.string().min(1)).min(1).nullable().optional(),
  rpm_limit: limit.optional(),
  tpm_limit: limit.optional(),
  concurrency_limit: limit.optional(),
  budget_usd: z.number().positive().nullable().optional(),
  budget_period: z.enum(['day', 'month', 'total']).optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** `PATCH /admin/keys/:id` body: any field of the create body. */
export const updateKeyInputSchema = createKeyInputSchema.partial();

/** A validated create body. */
export type CreateKeyInput = z.infer<typeof createKeyInputSchema>;
/** A validated update body. */
export type UpdateKeyInput = z.infer<typeof updateKeyInputSchema>;

/** Longest grace period of a rotated key's previous secret: 30 days, in seconds. */
export const MAX_GRACE_SECONDS = 2_592_000;

/**
 * `POST /admin/keys/:id/rotate` body: `grace_seconds`, how long the replaced secret stays valid (default 86,400 = one
 * day; 0 ends it at once; at most {@link MAX_GRACE_SECONDS}). An empty body takes the default.
 */
export const rotateKeyInputSchema = z.strictObject({
  grace_seconds: z.number().int().min(0).max(MAX_GRACE_SECONDS).optional(),
});

/** A validated rotate body. */
export type RotateKeyInput = z.infer<typeof rotateKeyInputSchema>;
