import { z } from 'zod';

const limit = z.number().int().positive().nullable();
const period = z.enum(['day', 'week', 'month', 'total']);
const usd = z.number().positive().nullable();

/**
 * The limit fields of a key or team body (see `LimitFields`): `models` (ids or globs), `rpm_limit` (requests/min),
 * `tpm_limit` (tokens/min), `concurrency_limit` (calls in flight at once), `budget_usd` (USD per `budget_period`:
 * `day` | `week` | `month` | `total`, default `total`), `end_user_budget_usd`, `end_user_budget_period`,
 * `end_user_rpm_limit`, `session_budget_usd`, `session_rpm_limit`. null clears a limit.
 */
export const limitFieldsShape = {
  models: z.array(z.string().min(1)).min(1).nullable().optional(),
  rpm_limit: limit.optional(),
  tpm_limit: limit.optional(),
  concurrency_limit: limit.optional(),
  budget_usd: usd.optional(),
  budget_period: period.optional(),
  end_user_budget_usd: usd.optional(),
  end_user_budget_period: period.nullable().optional(),
  end_user_rpm_limit: limit.optional(),
  session_budget_usd: usd.optional(),
  session_rpm_limit: limit.optional(),
};
