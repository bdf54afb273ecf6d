import { useState } from 'preact/hooks';
import { type AdminApi, visibleOrNone } from '../api.js';
import type { LimitGroupView } from '../api-types.js';
import { ErrorNote } from '../error-note.js';
import { DAY_MS, formatCount, formatUsd } from '../format.js';
import { TotalsTable } from '../totals-table.js';
import { useLoad } from '../use-load.js';

/** `$spent of $budget per period`, or the spend alone when there is no budget. */
function spendText(group: LimitGroupView): string {
  const spent = formatUsd(group.spend_usd ?? 0);
  if (group.budget_usd === null) return `${spent} (no budget)`;
  const per = group.budget_period === 'total' ? 'in all' : `per ${group.budget_period}`;
  return `${spent} of ${formatUsd(group.budget_usd)} ${per}`;
}

/** `rpm / tpm / in flight`, a dash for each limit not set. */
function limitsText(group: LimitGroupView): string {
  const show = (n: number | null | undefined) => (n === null || n === undefined ? '–' : formatCount(n));
  return `${show(group.rpm_limit)} / ${show(group.tpm_limit)} / ${show(group.concurrency_limit)}`;
}

/** One table of teams or organisations: name (a button selecting it), spend against budget, limits, model list. */
function GroupTable(props: {
  title: string;
  /** Undefined while loading. */
  groups: LimitGroupView[] | undefined;
  extra?: { label: string; value: (g: LimitGroupView) => string };
  selected?: string;
  onSelect: (id: string) => void;
}) {
  const { title, groups, extra, selected, onSelect } = props;
  return (
    <section class="panel">
      <h2>{title}</h2>
      <table class="data" aria-label={title}>
        <thead>
          <tr>
            <th>Name</th>
            {extra && <th>{extra.label}</th>}
            <th>Spend (current window)</th>
            <th>rpm / tpm / in flight</th>
            <th>Models</th>
          </tr>
        </thead>
        <tbody>
          {groups?.length === 0 && (
            <tr>
              <td colSpan={extra ? 5 : 4} class="empty">
                None yet: create them with the admin API.
              </td>
            </tr>
          )}
          {(groups ?? []).map((g) => (
            <tr key={g.id} aria-selected={g.id === selected}>
              <td>
                <button type="button" class="link" onClick={() => onSelect(g.id)}>
                  {g.name}
                </button>
              </td>
              {extra && <td>{extra.value(g)}</td>}
              <td data-testid={`spend-${g.id}`}>{spendText(g)}</td>
              <td>{limitsText(g)}</td>
              <td>{g.models ? g.models.join(', ') : 'all'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * The Teams page: organisations and teams with their spend against their budgets and their limits; selecting one shows
 * its usage of the last 30 days by model and by key.
 */
export function TeamsPage({ api }: { api: AdminApi }) {
  const [selected, setSelected] = useState<{ kind: 'team' | 'organization'; id: string } | undefined>();
  const groups = useLoad(async () => {
    const [teams, organizations] = await Promise.all([api.teams(), visibleOrNone(api.organizations())]);
    return { teams, organizations, orgNames: new Map(organizations.map((o) => [o.id, o.name])) };
  }, [api]);
  const detail = useLoad(async () => {
    if (!selected) return undefined;
    const query = { from: Date.now() - 30 * DAY_MS, to: Date.now() + 1, [selected.kind]: selected.id };
    const [byModel, byKey, keys] = await Promise.all([
      api.usage({ ...query, group_by: 'model' }),
      api.usage({ ...query, group_by: 'key' }),
      api.listKeys(),
    ]);
    return { byModel, byKey, names: new Map(keys.map((k) => [k.id, k.name])) };
  }, [api, selected?.kind, selected?.id]);
  const data = groups.data;
  const selectedName =
    selected && [...(data?.teams ?? []), ...(data?.organizations ?? [])].find((g) => g.id === selected.id)?.name;
  return (
    <section>
      <div class="page-head">
        <h1>Teams</h1>
        <button type="button" class="secondary" onClick={groups.reload}>
          Refresh
        </button>
      </div>
      <ErrorNote message={groups.error ?? detail.error} />
      {(data?.organizations.length ?? 0) > 0 && (
        <GroupTable
          title="Organizations"
          groups={data?.organizations ?? []}
          selected={selected?.id}
          onSelect={(id) => setSelected({ kind: 'organization', id })}
        />
      )}
      <GroupTable
        title="Teams"
        groups={data?.teams}
        extra={{ label: 'Organization', value: (g) => data?.orgNames.get(g.organization_id ?? '') ?? '–' }}
        selected={selected?.id}
        onSelect={(id) => setSelected({ kind: 'team', id })}
      />
      {selected && detail.data && (
        <section class="columns" aria-label={`Usage of ${selectedName ?? selected.id}`}>
          <TotalsTable
            title={`${selectedName ?? selected.id}: last 30 days by model`}
            label="Model"
            rows={detail.data.byModel}
            nameOf={(m) => m}
          />
          <TotalsTable
            title={`${selectedName ?? selected.id}: last 30 days by key`}
            label="Key"
            rows={detail.data.byKey}
            nameOf={(id) => detail.data?.names.get(id) ?? id}
          />
        </section>
      )}
    </section>
  );
}
