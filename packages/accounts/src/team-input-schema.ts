import { z } from 'zod';
import { limitFieldsShape } from './limit-fields-schema.js';

/**
 * `POST /admin/teams` body: `name`, the limit fields of a key (see `limitFieldsShape`), and optionally
 * `organization_id` (the team's organisation; null = none) and `metadata` (object). Unknown fields are rejected.
 */
export const createTeamInputSchema = z.strictObject({
  name: z.string().min(1).max(200),
  ...limitFieldsShape,
  organization_id: z.string().min(1).max(200).nullable().optional(),
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** `PATCH /admin/teams/:id` body: any field of the create body. */
export const updateTeamInputSchema = createTeamInputSchema.partial();

/** A validated team create body. */
export type CreateTeamInput = z.infer<typeof createTeamInputSchema>;
/** A validated team update body. */
export type UpdateTeamInput = z.infer<typeof updateTeamInputSchema>;
