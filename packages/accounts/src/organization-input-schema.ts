import { z } from 'zod';
import { limitFieldsShape } from './limit-fields-schema.js';

/**
 * `POST /admin/organizations` body: `name`, the limit fields of a key (see `limitFieldsShape`), and optionally
 * `metadata` (object). Unknown fields are rejected.
 */
export const createOrganizationInputSchema = z.strictObject({
  name: z.string().min(1).max(200),
  ...limitFieldsShape,
  metadata: z.record(z.string(), z.unknown()).nullable().optional(),
});

/** `PATCH /admin/organizations/:id` body: any field of the create body. */
export const updateOrganizationInputSchema = createOrganizationInputSchema.partial();

/** A validated organisation create body. */
export type CreateOrganizationInput = z.infer<typeof createOrganizationInputSchema>;
/** A validated organisation update body. */
export type UpdateOrganizationInput = z.infer<typeof updateOrganizationInputSchema>;
