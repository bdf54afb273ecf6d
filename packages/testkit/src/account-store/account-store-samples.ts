import type { AuditEntry, Organization, Team, UsageRow, VirtualKey } from '@switchyard/accounts';

// Sample records for the account store behaviour suite (describe-account-store.ts): keys, teams, organisations, ledger
// rows, audit entries.

let counter = 0;
/** A store name no other test uses (process, time, counter). */
export const uniqueName = () => `t${process.pid}_${Date.now().toString(36)}_${counter++}`;

/** A virtual key `id` with every field set (limits, budget, metadata), `overrides` on top. */
export const key = (id: string, overrides: Partial<VirtualKey> = {}): VirtualKey => ({
  id,
  name: `name of ${id}`,
  key_hash: `${id}`.padEnd(64, '0'),
  key_prefix: 'sk-sy-abcd…',
  models: null,
  rpm_limit: null,
  tpm_limit: null,
  concurrency_limit: null,
  budget_usd: null,
  budget_period: 'total',
  expires_at: null,
  metadata: null,
  created_at: new Date(Date.UTC(2026, 10, 1, 12, 0, 0, 123) + Number(id.replace(/\D/g, '') || 0)).toISOString(),
  revoked_at: null,
  previous_key_hash: null,
  previous_key_prefix: null,
  previous_key_expires_at: null,
  rotated_at: null,
  team_id: null,
  budget_started_at: null,
  end_user_budget_usd: null,
  end_user_budget_period: null,
  end_user_rpm_limit: null,
  session_budget_usd: null,
  session_rpm_limit: null,
  ...overrides,
});

/** A team `id` with every limit field set, `overrides` on top. */
export const team = (id: string, overrides: Partial<Team> = {}): Team => ({
  id,
  name: `team ${id}`,
  models: null,
  rpm_limit: null,
  tpm_limit: null,
  concurrency_limit: null,
  budget_usd: null,
  budget_period: 'total',
  budget_started_at: null,
  end_user_budget_usd: null,
  end_user_budget_period: null,
  end_user_rpm_limit: null,
  session_budget_usd: null,
  session_rpm_limit: null,
  organization_id: null,
  metadata: null,
  created_at: new Date(Date.UTC(2026, 10, 1, 12, 0, 0, 0) + Number(id.replace(/\D/g, '') || 0)).toISOString(),
  ...overrides,
});

/** An organisation `id` with every limit field set, `overrides` on top. */
export const organization = (id: string, overrides: Partial<Organization> = {}): Organization => {
  const { organization_id: _, ...fields } = team(id, { name: `organization ${id}` });
  return { ...fields, ...overrides };
};

/** A ledger row of `key_id` for `model` at `created_at` (unix ms) costing `cost_usd`, 10 prompt + 5 completion tokens. */
export const usageRow = (key_id: string, model: string, created_at: number, cost_usd: number): UsageRow => ({
  request_id: `r-${Math.random()}`,
  key_id,
  model,
  provider: 'openai',
  upstream_model: model,
  prompt_tokens: 10,
  completion_tokens: 5,
  cost_usd,
  price_source: 'config',
  latency_ms: 12.5,
  ttfb_ms: 3,
  status: 200,
  stream: false,
  created_at,
  attempts: 1,
  usage_estimated: false,
  cache_hit: false,
  hedged: false,
  stream_failover: false,
  operation: 'chatCompletions',
  session_id: null,
  agent_id: null,
  parent_agent_id: null,
  batch_id: null,
  team_id: null,
  end_user: null,
  organization_id: null,
});

/** An audit entry `n` at `created_at` (unix ms) by `actor` on `target`, with nested before/after values. */
export const auditEntry = (
  n: number,
  created_at: number,
  actor: string,
  target: string | null,
  action = 'key.update',
): AuditEntry => ({
  id: `aud_${String(n).padStart(32, '0')}`,
  created_at,
  actor,
  action,
  target,
  source_address: n % 2 ? '127.0.0.1' : null,
  before: n % 3 ? { rpm_limit: n, models: ['gpt-4o*'], nested: { ok: true } } : null,
  after: { rpm_limit: n + 1, metadata: { team: 'a' } },
});
