/** One versioned schema change. Versions are applied in order, each once, in its own transaction. */
export interface Migration {
  /** Positive, strictly increasing; never renumber a released migration. */
  version: number;
  name: string;
  sql: string;
}

/**
 * The schema of the Postgres store, as an append-only list: `switchyard_keys` (SHA-256 hashes, never secrets) and
 * `switchyard_usage` (the ledger, indexed for the usage queries: by key and time, by model and time, by time),
 * `switchyard_responses` (stored Responses API responses, one JSON record each, with their owner and expiry; since
 * version 8 each holds its own items and a link to the response it continued, with its size in bytes) and
 * `switchyard_response_items` (which response holds an item id, for `item_reference`). Since version 10 a key holds
 * the hash of the secret its last rotation replaced, and when that secret's grace period ends. Version 12 adds
 * `switchyard_audit`, the append-only audit log (a trigger refuses UPDATE and DELETE); version 13
 * `switchyard_teams` (teams and their limits; keys name theirs in `team_id`, ledger rows too); version 14
 * `switchyard_admin_sessions` (console sign-in sessions); version 15
 * `switchyard_organizations` (organisations above teams; teams name theirs in `organization_id`, ledger rows too).
 * `row_id` makes a retried ledger batch idempotent.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'keys and usage ledger',
    sql: `
CREATE TABLE switchyard_keys (
  id text PRIMARY KEY,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  models text[],
  rpm_limit integer,
  tpm_limit integer,
  budget_usd double precision,
  budget_period text NOT NULL,
  expires_at timestamptz,
  metadata jsonb,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE TABLE switchyard_usage (
  row_id uuid PRIMARY KEY,
  request_id text NOT NULL,
  key_id text NOT NULL,
  model text NOT NULL,
  provider text,
  upstream_model text,
  prompt_tokens integer NOT NULL,
  completion_tokens integer NOT NULL,
  cost_usd double precision NOT NULL,
  latency_ms double precision NOT NULL,
  ttfb_ms double precision,
  status integer NOT NULL,
  stream boolean NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX switchyard_usage_key_time ON switchyard_usage (key_id, created_at);
CREATE INDEX switchyard_usage_model_time ON switchyard_usage (model, created_at);
CREATE INDEX switchyard_usage_time ON switchyard_usage (created_at);
`,
  },
  {
    version: 2,
    name: 'stored responses',
    sql: `
CREATE TABLE switchyard_responses (
  id text PRIMARY KEY,
  owner text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  record jsonb NOT NULL
);
CREATE INDEX switchyard_responses_expiry ON switchyard_responses (expires_at);
`,
  },
  {
    version: 3,
    name: 'ledger price source',
    sql: `ALTER TABLE switchyard_usage ADD COLUMN price_source text;`,
  },
  {
    version: 4,
    name: 'ledger attempts and estimated usage',
    sql: `
ALTER TABLE switchyard_usage ADD COLUMN attempts integer NOT NULL DEFAULT 1;
ALTER TABLE switchyard_usage ADD COLUMN usage_estimated boolean NOT NULL DEFAULT false;
`,
  },
  {
    version: 5,
    name: 'ledger cache hits',
    sql: `ALTER TABLE switchyard_usage ADD COLUMN cache_hit boolean NOT NULL DEFAULT false;`,
  },
  {
    version: 6,
    name: 'key concurrency limit',
    sql: `ALTER TABLE switchyard_keys ADD COLUMN concurrency_limit integer;`,
  },
  {
    version: 7,
    name: 'ledger hedged requests and stream failover',
    sql: `
ALTER TABLE switchyard_usage ADD COLUMN hedged boolean NOT NULL DEFAULT false;
ALTER TABLE switchyard_usage ADD COLUMN stream_failover boolean NOT NULL DEFAULT false;
`,
  },
  {
    version: 8,
    name: 'stored responses linked, sized and item-indexed',
    // Rows written before keep their copy of the conversation (record.history) and stay readable and continuable.
    sql: `
ALTER TABLE switchyard_responses ADD COLUMN previous_response_id text;
ALTER TABLE switchyard_responses ADD COLUMN bytes bigint NOT NULL DEFAULT 0;
UPDATE switchyard_responses SET bytes = octet_length(record::text);
CREATE INDEX switchyard_responses_owner_time ON switchyard_responses (owner, created_at);
CREATE TABLE switchyard_response_items (
  owner text NOT NULL,
  item_id text NOT NULL,
  response_id text NOT NULL REFERENCES switchyard_responses (id) ON DELETE CASCADE,
  PRIMARY KEY (owner, item_id, response_id)
);
CREATE INDEX switchyard_response_items_response ON switchyard_response_items (response_id);
INSERT INTO switchyard_response_items (owner, item_id, response_id)
  SELECT r.owner, i->>'id', r.id FROM switchyard_responses r, jsonb_array_elements(coalesce(r.record->'input_items', '[]'::jsonb)) i
  WHERE i->>'id' IS NOT NULL AND coalesce(i->>'type', '') <> 'item_reference'
  UNION
  SELECT r.owner, o->>'id', r.id FROM switchyard_responses r, jsonb_array_elements(coalesce(r.record->'response'->'output', '[]'::jsonb)) o
  WHERE o->>'id' IS NOT NULL
ON CONFLICT DO NOTHING;
`,
  },
  {
    version: 9,
    name: 'ledger operation, client session and agent',
    sql: `
ALTER TABLE switchyard_usage ADD COLUMN operation text;
ALTER TABLE switchyard_usage ADD COLUMN session_id text;
ALTER TABLE switchyard_usage ADD COLUMN agent_id text;
ALTER TABLE switchyard_usage ADD COLUMN parent_agent_id text;
CREATE INDEX switchyard_usage_session ON switchyard_usage (session_id, created_at) WHERE session_id IS NOT NULL;
`,
  },
  {
    version: 10,
    name: 'key rotation',
    sql: `
ALTER TABLE switchyard_keys ADD COLUMN previous_key_hash text;
ALTER TABLE switchyard_keys ADD COLUMN previous_key_prefix text;
ALTER TABLE switchyard_keys ADD COLUMN previous_key_expires_at timestamptz;
ALTER TABLE switchyard_keys ADD COLUMN rotated_at timestamptz;
CREATE UNIQUE INDEX switchyard_keys_previous_hash ON switchyard_keys (previous_key_hash) WHERE previous_key_hash IS NOT NULL;
`,
  },
  {
    version: 11,
    name: 'files, batches and batch lines; ledger batch id',
    sql: `
ALTER TABLE switchyard_usage ADD COLUMN batch_id text;
CREATE INDEX switchyard_usage_batch ON switchyard_usage (batch_id) WHERE batch_id IS NOT NULL;
CREATE TABLE switchyard_files (
  id text PRIMARY KEY,
  owner text NOT NULL,
  bytes bigint NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint,
  filename text NOT NULL,
  purpose text NOT NULL
);
CREATE INDEX switchyard_files_owner_time ON switchyard_files (owner, created_at, id);
CREATE TABLE switchyard_batches (
  id text PRIMARY KEY,
  owner text NOT NULL,
  key_id text NOT NULL,
  runner text NOT NULL,
  upstream_id text,
  status text NOT NULL,
  created_at bigint NOT NULL,
  batch jsonb NOT NULL
);
CREATE INDEX switchyard_batches_owner_time ON switchyard_batches (owner, created_at, id);
CREATE INDEX switchyard_batches_status ON switchyard_batches (status);
CREATE TABLE switchyard_batch_lines (
  batch_id text NOT NULL,
  line integer NOT NULL,
  custom_id text NOT NULL,
  body text NOT NULL,
  state text NOT NULL DEFAULT 'pending',
  worker text,
  lease_until bigint,
  attempts integer NOT NULL DEFAULT 0,
  failed boolean,
  result jsonb,
  PRIMARY KEY (batch_id, line)
);
CREATE INDEX switchyard_batch_lines_state ON switchyard_batch_lines (batch_id, state, line);
`,
  },
  {
    version: 12,
    name: 'append-only audit log',
    // The gateway needs only INSERT and SELECT on switchyard_audit; the trigger refuses UPDATE and DELETE even to the
    // table's owner (TRUNCATE is an owner's operation, not the gateway's).
    sql: `
CREATE TABLE switchyard_audit (
  id text PRIMARY KEY,
  created_at bigint NOT NULL,
  actor text NOT NULL,
  action text NOT NULL,
  target text,
  source_address text,
  before jsonb,
  after jsonb
);
CREATE INDEX switchyard_audit_time ON switchyard_audit (created_at, id);
CREATE INDEX switchyard_audit_actor ON switchyard_audit (actor, created_at);
CREATE INDEX switchyard_audit_target ON switchyard_audit (target, created_at) WHERE target IS NOT NULL;
CREATE FUNCTION switchyard_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'switchyard_audit is append-only';
END;
$$;
CREATE TRIGGER switchyard_audit_append_only BEFORE UPDATE OR DELETE ON switchyard_audit
  FOR EACH ROW EXECUTE FUNCTION switchyard_audit_append_only();
`,
  },
  {
    version: 13,
    name: 'teams, end-user and session limits',
    sql: `
CREATE TABLE switchyard_teams (
  id text PRIMARY KEY,
  name text NOT NULL,
  models text[],
  rpm_limit integer,
  tpm_limit integer,
  concurrency_limit integer,
  budget_usd double precision,
  budget_period text NOT NULL,
  budget_started_at timestamptz,
  end_user_budget_usd double precision,
  end_user_budget_period text,
  end_user_rpm_limit integer,
  session_budget_usd double precision,
  session_rpm_limit integer,
  metadata jsonb,
  created_at timestamptz NOT NULL
);
ALTER TABLE switchyard_keys ADD COLUMN team_id text;
ALTER TABLE switchyard_keys ADD COLUMN budget_started_at timestamptz;
ALTER TABLE switchyard_keys ADD COLUMN end_user_budget_usd double precision;
ALTER TABLE switchyard_keys ADD COLUMN end_user_budget_period text;
ALTER TABLE switchyard_keys ADD COLUMN end_user_rpm_limit integer;
ALTER TABLE switchyard_keys ADD COLUMN session_budget_usd double precision;
ALTER TABLE switchyard_keys ADD COLUMN session_rpm_limit integer;
ALTER TABLE switchyard_usage ADD COLUMN team_id text;
ALTER TABLE switchyard_usage ADD COLUMN end_user text;
CREATE INDEX switchyard_usage_team_time ON switchyard_usage (team_id, created_at) WHERE team_id IS NOT NULL;
CREATE INDEX switchyard_usage_end_user_time ON switchyard_usage (end_user, created_at) WHERE end_user IS NOT NULL;
`,
  },
  {
    version: 14,
    name: 'console sessions',
    sql: `
CREATE TABLE switchyard_admin_sessions (
  id_hash text PRIMARY KEY,
  actor text NOT NULL,
  role text NOT NULL,
  teams text[] NOT NULL,
  method text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL
);
CREATE INDEX switchyard_admin_sessions_expiry ON switchyard_admin_sessions (expires_at);
`,
  },
  {
    version: 15,
    name: 'organizations above teams',
    sql: `
CREATE TABLE switchyard_organizations (
  id text PRIMARY KEY,
  name text NOT NULL,
  models text[],
  rpm_limit integer,
  tpm_limit integer,
  concurrency_limit integer,
  budget_usd double precision,
  budget_period text NOT NULL,
  budget_started_at timestamptz,
  end_user_budget_usd double precision,
  end_user_budget_period text,
  end_user_rpm_limit integer,
  session_budget_usd double precision,
  session_rpm_limit integer,
  metadata jsonb,
  created_at timestamptz NOT NULL
);
ALTER TABLE switchyard_teams ADD COLUMN organization_id text;
ALTER TABLE switchyard_usage ADD COLUMN organization_id text;
CREATE INDEX switchyard_usage_organization_time ON switchyard_usage (organization_id, created_at)
  WHERE organization_id IS NOT NULL;
`,
  },
];
