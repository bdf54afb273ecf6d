import type { BatchView } from '../api-types.js';
import { formatTime } from '../format.js';

/**
 * The batches still running, with their progress: lines done (answered + failed) of all, as a bar and as text, the
 * failed ones named, and who runs them (`gateway` line by line, or the provider's batch API). Nothing when none runs.
 */
export function BatchesTable({ batches }: { batches: readonly BatchView[] }) {
  if (batches.length === 0) return null;
  return (
    <table class="data" aria-label="Batches">
      <caption>Batches in progress</caption>
      <thead>
        <tr>
          <th>Created</th>
          <th>Batch</th>
          <th>Key</th>
          <th>Model</th>
          <th>Status</th>
          <th>Progress</th>
        </tr>
      </thead>
      <tbody>
        {batches.map((batch) => {
          const { total, completed, failed } = batch.request_counts;
          const done = completed + failed;
          return (
            <tr key={batch.id}>
              <td>{formatTime(batch.created_at * 1000)}</td>
              <td title={`${batch.endpoint}, run by ${batch.runner}`}>{batch.id}</td>
              <td>{batch.key_name ?? batch.key_id}</td>
              <td>{batch.model ?? '—'}</td>
              <td>
                {batch.status}
                {batch.runner !== 'gateway' && <span class="muted"> · {batch.runner} batch API</span>}
              </td>
              <td>
                <progress max={Math.max(total, 1)} value={done} aria-label={`${batch.id} progress`} /> {done} / {total}
                {failed > 0 && <span class="bad"> ({failed} failed)</span>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
