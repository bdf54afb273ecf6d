import { isTimeZone } from '@switchyard/accounts';
import { z } from 'zod';

/**
 * `budgets`: `timezone` (IANA name, default `UTC`): where `day`, `week` (from Monday) and `month` budgets of keys,
 * teams and end users reset; `session_header`: a request header naming the agent session (e.g. `x-session-id`),
 * read when Claude Code's `x-claude-code-session-id` is absent (Codex's `prompt_cache_key` is read after both).
 */
export const budgetsConfigSchema = z
  .strictObject({
    timezone: z
      .string()
      .refine(isTimeZone, 'expected an IANA time zone name such as UTC or Europe/Paris')
      .default('UTC'),
    session_header: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, 'expected a header name')
      .transform((name) => name.toLowerCase())
      .optional(),
  })
  .prefault({});

/**
 * `alerts`: budget threshold events. `webhook_url` receives one JSON POST per threshold (80 % and 100 %) a key, team,
 * end user or session crosses, signed with HMAC-SHA256 of the body under `secret` (at least 16 characters) in
 * `x-switchyard-signature: sha256=<hex>`; failed deliveries are retried with backoff.
 */
export const alertsConfigSchema = z.strictObject({
  webhook_url: z.url({ protocol: /^https?$/ }),
  secret: z.string().min(16, 'the alert secret must be at least 16 characters'),
});
