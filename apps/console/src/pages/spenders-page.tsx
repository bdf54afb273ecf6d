import { useState } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import { DateRangeForm, INVALID_RANGE_MESSAGE, useDateRange } from '../date-range.js';
import { ErrorNote } from '../error-note.js';
import { TotalsTable } from '../totals-table.js';
import { useLoad } from '../use-load.js';

/** What is selected: an end user (OpenAI's `user`) or an agent session (e.g. `x-claude-code-session-id`). */
type Selection = { kind: 'end_user' | 'session'; id: string };

/**
 * The End users & sessions page: over a UTC date range, the end users (OpenAI's `user` or `safety_identifier`) and the
 * agent sessions (Claude Code's session id, a configured header, or Codex's `prompt_cache_key`) with their requests,
 * tokens and spend; selecting one shows its usage by model, and a session's by agent (subagents included).
 */
export function SpendersPage({ api }: { api: AdminApi }) {
  const dates = useDateRange();
  const { from, to, valid } = dates;
  const [selected, setSelected] = useState<Selection | undefined>();
  const lists = useLoad(async () => {
    if (!valid) throw new Error(INVALID_RANGE_MESSAGE);
    const [endUsers, sessions] = await Promise.all([
      api.usage({ from, to, group_by: 'end_user' }),
      api.usage({ from, to, group_by: 'session' }),
    ]);
    return { endUsers, sessions };
  }, [api, from, to]);
  const detail = useLoad(async () => {
    if (!selected || !valid) return undefined;
    const query = { from, to, [selected.kind]: selected.id };
    const [byModel, byAgent] = await Promise.all([
      api.usage({ ...query, group_by: 'model' }),
      selected.kind === 'session' ? api.usage({ ...query, group_by: 'agent' }) : Promise.resolve([]),
    ]);
    return { byModel, byAgent };
  }, [api, from, to, selected?.kind, selected?.id]);
  const name = selected ? `${selected.kind === 'session' ? 'Session' : 'End user'} ${selected.id}` : '';
  return (
    <section>
      <div class="page-head">
        <h1>End users &amp; sessions</h1>
        <DateRangeForm idPrefix="spenders" state={dates} onRefresh={lists.reload} />
      </div>
      <ErrorNote message={lists.error ?? detail.error} />
      <div class="columns">
        <TotalsTable
          title="End users"
          label="End user"
          rows={lists.data?.endUsers ?? []}
          nameOf={(id) => id}
          selected={selected?.kind === 'end_user' ? selected.id : undefined}
          onSelect={(id) => setSelected({ kind: 'end_user', id })}
        />
        <TotalsTable
          title="Agent sessions"
          label="Session"
          rows={lists.data?.sessions ?? []}
          nameOf={(id) => id}
          selected={selected?.kind === 'session' ? selected.id : undefined}
          onSelect={(id) => setSelected({ kind: 'session', id })}
        />
      </div>
      {selected && detail.data && (
        <section class="columns" aria-label={`Usage of ${name}`}>
          <TotalsTable title={`${name} by model`} label="Model" rows={detail.data.byModel} nameOf={(m) => m} />
          {selected.kind === 'session' && (
            <TotalsTable title={`${name} by agent`} label="Agent" rows={detail.data.byAgent} nameOf={(a) => a} />
          )}
        </section>
      )}
    </section>
  );
}
