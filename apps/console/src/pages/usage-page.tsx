import { useMemo, useState } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import { ErrorNote } from '../error-note.js';
import { dailySeries, dayStartMs, daysBetween, formatCount, formatUsd, lastDays } from '../format.js';
import { UsageChart } from '../usage-chart.js';
import { TotalsTable } from '../totals-table.js';
import { useLoad } from '../use-load.js';

const DAY_MS = 86_400_000;

/** The Usage page: totals, a per-day chart of spend and tokens, and tables by model and by key, over a UTC date range. */
export function UsagePage({ api }: { api: AdminApi }) {
  const [range, setRange] = useState(() => lastDays(7));
  const from = dayStartMs(range.from);
  const to = dayStartMs(range.to) + DAY_MS;
  const valid = Number.isFinite(from) && Number.isFinite(to) && from < to;
  const usage = useLoad(async () => {
    if (!valid) throw new Error('Pick a start date on or before the end date.');
    const [total, byDay, byModel, byKey, keys] = await Promise.all([
      api.usage({ from, to }),
      api.usage({ from, to, group_by: 'day' }),
      api.usage({ from, to, group_by: 'model' }),
      api.usage({ from, to, group_by: 'key' }),
      api.listKeys(),
    ]);
    return { total: total[0], byDay, byModel, byKey, names: new Map(keys.map((k) => [k.id, k.name])) };
  }, [api, from, to]);
  const series = useMemo(
    () => dailySeries(daysBetween(range.from, range.to), usage.data?.byDay ?? []),
    [range.from, range.to, usage.data],
  );
  const total = usage.data?.total;
  const names = usage.data?.names;
  return (
    <section>
      <div class="page-head">
        <h1>Usage</h1>
        <form class="inline" onSubmit={(e) => e.preventDefault()}>
          <label for="usage-from">From</label>
          <input
            id="usage-from"
            type="date"
            value={range.from}
            onChange={(e) => setRange({ ...range, from: e.currentTarget.value })}
          />
          <label for="usage-to">To</label>
          <input
            id="usage-to"
            type="date"
            value={range.to}
            onChange={(e) => setRange({ ...range, to: e.currentTarget.value })}
          />
          <button type="button" class="secondary" onClick={usage.reload}>
            Refresh
          </button>
        </form>
      </div>
      <ErrorNote message={usage.error} />
      <dl class="totals" aria-label="Totals">
        <div>
          <dt>Requests</dt>
          <dd data-testid="total-requests">{formatCount(total?.requests ?? 0)}</dd>
        </div>
        <div>
          <dt>Cache hits</dt>
          <dd data-testid="total-cache-hits">{formatCount(total?.cache_hits ?? 0)}</dd>
        </div>
        <div>
          <dt>Prompt tokens</dt>
          <dd data-testid="total-prompt-tokens">{formatCount(total?.prompt_tokens ?? 0)}</dd>
        </div>
        <div>
          <dt>Completion tokens</dt>
          <dd data-testid="total-completion-tokens">{formatCount(total?.completion_tokens ?? 0)}</dd>
        </div>
        <div>
          <dt>Total tokens</dt>
          <dd data-testid="total-tokens">{formatCount(total?.total_tokens ?? 0)}</dd>
        </div>
        <div>
          <dt>Spend</dt>
          <dd data-testid="total-spend">{formatUsd(total?.cost_usd ?? 0)}</dd>
        </div>
      </dl>
      <section class="panel">
        <h2>Spend and tokens per day (UTC)</h2>
        <UsageChart series={series} />
      </section>
      <div class="columns">
        <TotalsTable title="By model" label="Model" rows={usage.data?.byModel ?? []} nameOf={(m) => m} />
        <TotalsTable
          title="By key"
          label="Key"
          rows={usage.data?.byKey ?? []}
          nameOf={(id) => names?.get(id) ?? (id === 'static' ? 'static (config keys)' : id)}
        />
      </div>
    </section>
  );
}
