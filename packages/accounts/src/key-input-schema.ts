import { z } from 'zod';
import { limitFieldsShape } from './limit-fields-schema.js';

/**
 * `POST /admin/keys` body: `name`, the limit fields (see `limitFieldsShape`), and optionally `team_id` (the key's
 * team, whose limits apply too), `expires_at` (ISO-8601), `metadata` (object). Unknown fields are rejected.
 */
export const createKeyInputSchema = z.strictObject({
  name: z.string().min(1).max(200),
  ...limitFieldsShape,
  team_id: z.string().min(1).max(200).nullable().optional(),
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
