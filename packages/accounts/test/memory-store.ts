import type {
  AccountStore,
  AdminSession,
  AuditEntry,
  Organization,
  Team,
  UsageFilter,
  UsageRow,
  VirtualKey,
} from '../src/index.js';

/** An in-memory AccountStore for unit tests; `rows` holds the ledger. */
export function memoryStore(): AccountStore & { rows: UsageRow[] } {
  const keys = new Map<string, VirtualKey>();
  const rows: UsageRow[] = [];
  const audit: AuditEntry[] = [];
  const teams = new Map<string, Team>();
  const sessions = new Map<string, AdminSession>();
  const organizations = new Map<string, Organization>();
  const matches = (r: UsageRow, f: UsageFilter) =>
    (!f.key_id || r.key_id === f.key_id) &&
    (!f.team_id || r.team_id === f.team_id) &&
    (!f.organization_id || r.organization_id === f.organization_id) &&
    (!f.end_user || r.end_user === f.end_user) &&
    (!f.session_id || r.session_id === f.session_id) &&
    (!f.model || r.model === f.model) &&
    (f.from === undefined || r.created_at >= f.from) &&
    (f.to === undefined || r.created_at < f.to);
  return {
    rows,
    insertAdminSession: async (s) => void sessions.set(s.id_hash, s),
    getAdminSession: async (hash) => sessions.get(hash),
    deleteAdminSession: async (hash) => void sessions.delete(hash),
    deleteExpiredAdminSessions: async (now) => {
      const expired = [...sessions.values()].filter((s) => s.expires_at <= now);
      for (const s of expired) sessions.delete(s.id_hash);
      return expired.length;
    },
    appendAudit: async (e) => void audit.push(e),
    listAudit: async (q) =>
      audit
        .filter((e) => (!q.actor || e.actor === q.actor) && (!q.target || e.target === q.target))
        .slice(-q.limit)
        .reverse(),
    listKeys: async () => [...keys.values()],
    getKey: async (id) => keys.get(id),
    getKeyByHash: async (hash) => [...keys.values()].find((k) => k.key_hash === hash || k.previous_key_hash === hash),
    insertKey: async (k) => void keys.set(k.id, k),
    updateKey: async (k) => {
      const stored = keys.get(k.id);
      if (stored)
        keys.set(k.id, {
          ...k,
          key_hash: stored.key_hash,
          key_prefix: stored.key_prefix,
          previous_key_hash: stored.previous_key_hash,
          previous_key_prefix: stored.previous_key_prefix,
          previous_key_expires_at: stored.previous_key_expires_at,
          rotated_at: stored.rotated_at,
        });
    },
    rotateKeySecret: async (k) => void keys.set(k.id, k),
    appendUsage: async (r) => void rows.push(...r),
    recentUsage: async (id, since) => {
      const filter = typeof id === 'string' ? { key_id: id } : id;
      const used = rows.filter(
        (r) => matches(r, filter) && r.created_at >= since && ((r.attempts ?? 1) > 0 || r.cache_hit),
      );
      return { requests: used.length, tokens: used.reduce((s, r) => s + r.prompt_tokens + r.completion_tokens, 0) };
    },
    spendSince: async (id, since) =>
      rows.filter((r) => r.key_id === id && r.created_at >= since).reduce((s, r) => s + r.cost_usd, 0),
    listTeams: async () => [...teams.values()],
    getTeam: async (id) => teams.get(id),
    insertTeam: async (t) => void teams.set(t.id, t),
    updateTeam: async (t) => void teams.set(t.id, t),
    deleteTeam: async (id) => void teams.delete(id),
    listOrganizations: async () => [...organizations.values()],
    getOrganization: async (id) => organizations.get(id),
    insertOrganization: async (o) => void organizations.set(o.id, o),
    updateOrganization: async (o) => void organizations.set(o.id, o),
    deleteOrganization: async (id) => void organizations.delete(id),
    usageTotals: async (filter) => {
      const used = rows.filter((r) => matches(r, filter));
      const prompt = used.reduce((s, r) => s + r.prompt_tokens, 0);
      const completion = used.reduce((s, r) => s + r.completion_tokens, 0);
      const cost = used.reduce((s, r) => s + r.cost_usd, 0);
      return [
        {
          requests: used.length,
          prompt_tokens: prompt,
          completion_tokens: completion,
          total_tokens: prompt + completion,
          cost_usd: cost,
          cache_hits: 0,
        },
      ];
    },
    ping: async () => {},
    listUsage: async (q) =>
      rows
        .filter((r) => !q.key_id || r.key_id === q.key_id)
        .slice(-q.limit)
        .reverse(),
    close: async () => {},
  };
}
