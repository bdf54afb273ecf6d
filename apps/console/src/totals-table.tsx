import type { UsageTotals } from './api-types.js';
import { formatCount, formatUsd } from './format.js';

/**
 * A usage report's groups as a table (requests, cache hits, tokens, spend in USD), named by `nameOf`; with `onSelect`
 * each group's name is a button that selects it, and `selected` marks the selected one.
 */
export function TotalsTable({
  title,
  label,
  rows,
  nameOf,
  onSelect,
  selected,
}: {
  title: string;
  label: string;
  rows: UsageTotals[];
  nameOf: (group: string) => string;
  onSelect?: (group: string) => void;
  selected?: string;
}) {
  return (
    <section class="panel" aria-label={title}>
      <h2>{title}</h2>
      <table class="data">
        <thead>
          <tr>
            <th>{label}</th>
            <th class="num">Requests</th>
            <th class="num">Cache hits</th>
            <th class="num">Prompt tokens</th>
            <th class="num">Completion tokens</th>
            <th class="num">Spend</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr>
              <td colSpan={6} class="empty">
                No requests in this range.
              </td>
            </tr>
          )}
          {rows.map((row) => (
            <tr key={row.group} aria-selected={selected !== undefined ? row.group === selected : undefined}>
              <td>
                {onSelect ? (
                  <button type="button" class="link" onClick={() => onSelect(row.group ?? '')}>
                    {nameOf(row.group ?? '')}
                  </button>
                ) : (
                  nameOf(row.group ?? '')
                )}
              </td>
              <td class="num">{formatCount(row.requests)}</td>
              <td class="num">{formatCount(row.cache_hits ?? 0)}</td>
              <td class="num">{formatCount(row.prompt_tokens)}</td>
              <td class="num">{formatCount(row.completion_tokens)}</td>
              <td class="num">{formatUsd(row.cost_usd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
