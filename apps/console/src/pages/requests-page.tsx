import { useState } from 'preact/hooks';
import { type AdminApi, visibleOrNone } from '../api.js';
import { ErrorNote } from '../error-note.js';
import { formatCount, formatMs, formatTime, formatUsd } from '../format.js';
import { useLoad } from '../use-load.js';
import { BatchesTable } from './batches-table.js';

const PAGE_SIZE = 25;
const STATUSES = [
  ['', 'All'],
  ['ok', 'Succeeded (below 400)'],
  ['error', 'Failed (400 and above)'],
  ['2xx', '2xx'],
  ['4xx', '4xx'],
  ['429', '429 (limits)'],
  ['5xx', '5xx'],
] as const;

/**
 * The Requests page: the batches still running with their progress (see {@link BatchesTable}), then the latest ledger
 * rows (time, key name, model, provider, status, latency, time to first token, tokens, cost; a batch line names its
 * batch), filtered by key, model and status, paged with the API's `next_before` cursor.
 */
export function RequestsPage({ api }: { api: AdminApi }) {
  const [filters, setFilters] = useState({ key: '', model: '', status: '' });
  /** Cursors of the pages before the current one; the current page's cursor is the last. */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const before = cursors.at(-1);
  const options = useLoad(() => Promise.all([api.listKeys(), api.models()]), [api]);
  const page = useLoad(
    () => api.requests({ ...filters, before, limit: PAGE_SIZE }),
    [api, filters.key, filters.model, filters.status, before],
  );
  const batches = useLoad(() => visibleOrNone(api.batches()), [api]);
  const refresh = () => {
    page.reload();
    batches.reload();
  };
  const setFilter = (name: keyof typeof filters, value: string) => {
    setFilters({ ...filters, [name]: value });
    setCursors([undefined]);
  };
  const [keys, models] = options.data ?? [[], []];
  return (
    <section>
      <div class="page-head">
        <h1>Requests</h1>
        <button type="button" class="secondary" onClick={refresh}>
          Refresh
        </button>
      </div>
      <form class="inline filters" onSubmit={(e) => e.preventDefault()}>
        <label for="filter-key">Key</label>
        <select id="filter-key" value={filters.key} onChange={(e) => setFilter('key', e.currentTarget.value)}>
          <option value="">All keys</option>
          {keys.map((k) => (
            <option key={k.id} value={k.id}>
              {k.name}
            </option>
          ))}
          <option value="static">static (config keys)</option>
        </select>
        <label for="filter-model">Model</label>
        <input
          id="filter-model"
          list="filter-model-list"
          value={filters.model}
          onChange={(e) => setFilter('model', e.currentTarget.value.trim())}
        />
        <datalist id="filter-model-list">
          {models.map((m) => (
            <option key={m.id} value={m.id} />
          ))}
        </datalist>
        <label for="filter-status">Status</label>
        <select id="filter-status" value={filters.status} onChange={(e) => setFilter('status', e.currentTarget.value)}>
          {STATUSES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </form>
      <ErrorNote message={page.error ?? options.error ?? batches.error} />
      <BatchesTable batches={batches.data ?? []} />
      <table class="data" aria-label="Requests">
        <thead>
          <tr>
            <th>Time</th>
            <th>Key</th>
            <th>Model</th>
            <th>Provider</th>
            <th class="num">Status</th>
            <th class="num">Latency</th>
            <th class="num">TTFT</th>
            <th class="num">Tokens</th>
            <th class="num">Cost</th>
          </tr>
        </thead>
        <tbody>
          {page.data?.data.length === 0 && (
            <tr>
              <td colSpan={9} class="empty">
                No requests match.
              </td>
            </tr>
          )}
          {page.data?.data.map((row) => (
            <tr key={row.request_id} title={`request id ${row.request_id}`}>
              <td>{formatTime(row.created_at)}</td>
              <td>{row.key_name ?? (row.key_id === 'static' ? 'static' : row.key_id)}</td>
              <td>
                {row.model}
                {row.operation === 'realtime' && (
                  <span class="muted" title={`one response of realtime session ${row.session_id ?? ''}`}>
                    {' '}
                    · realtime {row.session_id}
                  </span>
                )}
                {row.batch_id && (
                  <span class="muted" title={`one line of batch ${row.batch_id}`}>
                    {' '}
                    · batch {row.batch_id}
                  </span>
                )}
              </td>
              <td>{row.provider ? `${row.provider}${row.upstream_model ? ` / ${row.upstream_model}` : ''}` : '—'}</td>
              <td
                class={`num ${row.status >= 400 ? 'bad' : ''}`}
                title={row.cache_hit ? 'answered from the response cache' : undefined}
              >
                {row.status}
                {row.cache_hit ? ' (cache)' : ''}
              </td>
              <td class="num">{formatMs(row.latency_ms)}</td>
              <td class="num">{formatMs(row.ttfb_ms)}</td>
              <td class="num" title={`${row.prompt_tokens} prompt + ${row.completion_tokens} completion`}>
                {formatCount(row.total_tokens)}
              </td>
              <td class="num" title={row.price_source ? `${row.price_source} price` : undefined}>
                {formatUsd(row.cost_usd)}
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
