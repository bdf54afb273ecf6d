import { useState } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import type { AuditEntry } from '../api-types.js';
import { ErrorNote } from '../error-note.js';
import { formatTime } from '../format.js';
import { useLoad } from '../use-load.js';

const PAGE_SIZE = 25;

/** The fields that differ between `before` and `after`, as `name: old → new` lines; the whole object for a creation. */
function changes(entry: AuditEntry): string[] {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const names = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const show = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value));
  if (!entry.before) return names.filter((n) => after[n] !== null).map((n) => `${n}: ${show(after[n])}`);
  return names
    .filter((n) => JSON.stringify(before[n]) !== JSON.stringify(after[n]))
    .map((n) => `${n}: ${show(before[n])} → ${show(after[n])}`);
}

/**
 * The Audit page: admin changes and sign-ins, newest first (time, actor, action, target, source address, and what
 * changed), filtered by actor, target and action, paged with the API's `next_before` cursor.
 */
export function AuditPage({ api }: { api: AdminApi }) {
  const [filters, setFilters] = useState({ actor: '', target: '', action: '' });
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const before = cursors.at(-1);
  const page = useLoad(
    () => api.audit({ ...filters, before, limit: PAGE_SIZE }),
    [api, filters.actor, filters.target, filters.action, before],
  );
  const setFilter = (name: keyof typeof filters, value: string) => {
    setFilters({ ...filters, [name]: value.trim() });
    setCursors([undefined]);
  };
  return (
    <section>
      <div class="page-head">
        <h1>Audit log</h1>
        <button type="button" class="secondary" onClick={page.reload}>
          Refresh
        </button>
      </div>
      <form class="inline filters" onSubmit={(e) => e.preventDefault()}>
        <label for="audit-actor">Actor</label>
        <input id="audit-actor" value={filters.actor} onChange={(e) => setFilter('actor', e.currentTarget.value)} />
        <label for="audit-target">Target</label>
        <input id="audit-target" value={filters.target} onChange={(e) => setFilter('target', e.currentTarget.value)} />
        <label for="audit-action">Action</label>
        <input
          id="audit-action"
          list="audit-actions"
          value={filters.action}
          onChange={(e) => setFilter('action', e.currentTarget.value)}
        />
        <datalist id="audit-actions">
          {['key.create', 'key.update', 'key.rotate', 'key.revoke', 'sign_in', 'sign_in.failed', 'sign_out'].map(
            (a) => (
              <option key={a} value={a} />
            ),
          )}
        </datalist>
      </form>
      <ErrorNote message={page.error} />
      <table class="data" aria-label="Audit log">
        <thead>
          <tr>
            <th>Time</th>
            <th>Actor</th>
            <th>Action</th>
            <th>Target</th>
            <th>From</th>
            <th>Changes</th>
          </tr>
        </thead>
        <tbody>
          {page.data?.data.length === 0 && (
            <tr>
              <td colSpan={6} class="empty">
                No entries match.
              </td>
            </tr>
          )}
          {page.data?.data.map((entry) => (
            <tr key={entry.id} data-audit-id={entry.id}>
              <td>{formatTime(entry.created_at)}</td>
              <td>{entry.actor}</td>
              <td>{entry.action}</td>
              <td>{entry.target ?? '—'}</td>
              <td>{entry.source_address ?? '—'}</td>
              <td class="changes">
                {changes(entry).map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="pager">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length <= 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Newer
        </button>
        <span>Page {cursors.length}</span>
        <button
          type="button"
          class="secondary"
          disabled={!page.data?.has_more}
          onClick={() => setCursors([...cursors, page.data?.next_before ?? undefined])}
        >
          Older
        </button>
      </div>
    </section>
  );
}
