import { useMemo } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import { DateRangeForm, INVALID_RANGE_MESSAGE, useDateRange } from '../date-range.js';
import { ErrorNote } from '../error-note.js';
import { dailySeries, daysBetween, formatCount, formatUsd } from '../format.js';
import { UsageChart } from '../usage-chart.js';
import { TotalsTable } from '../totals-table.js';
import { useLoad } from '../use-load.js';

/** The Usage page: totals, a per-day chart of spend and tokens, and tables by model and by key, over a UTC date range. */
export function UsagePage({ api }: { api: AdminApi }) {
  const dates = useDateRange();
  const { range, from, to, valid } = dates;
  const usage = useLoad(async () => {
    if (!valid) throw new Error(INVALID_RANGE_MESSAGE);
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
        <DateRangeForm idPrefix="usage" state={dates} onRefresh={usage.reload} />
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
