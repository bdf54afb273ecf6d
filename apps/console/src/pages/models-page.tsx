import { useEffect } from 'preact/hooks';
import type { AdminApi } from '../api.js';
import type { DeploymentHealth, Price } from '../api-types.js';
import { ErrorNote } from '../error-note.js';
import { formatMs, formatTime } from '../format.js';
import { useLoad } from '../use-load.js';

const REFRESH_MS = 5_000;

function price(p: Price | null): string {
  return p ? `$${p.input} / $${p.output}` : '—';
}

/**
 * The Models page: every configured model with its strategy, fallbacks and targets, and each deployment's live
 * health (in flight, latency average, consecutive failures, cooling down until), refreshed every 5 seconds.
 */
export function ModelsPage({ api }: { api: AdminApi }) {
  const models = useLoad(() => api.models(), [api]);
  const health = useLoad(() => api.health(), [api]);
  const { reload } = health;
  useEffect(() => {
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const byDeployment = new Map<string, DeploymentHealth>((health.data ?? []).map((h) => [h.deployment, h]));
  return (
    <section>
      <div class="page-head">
        <h1>Models</h1>
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </div>
      <ErrorNote message={models.error ?? health.error} />
      {models.data?.length === 0 && (
        <p class="empty">No models are configured: clients can still call `provider/model` ids.</p>
      )}
      {models.data?.map((model) => (
        <section class="panel model" key={model.id} aria-label={model.id}>
          <h2>{model.id}</h2>
          <p class="meta">
            Strategy <strong>{model.strategy}</strong> · retries {model.max_retries} · fallbacks{' '}
            <strong>{model.fallbacks.length ? model.fallbacks.join(' → ') : 'none'}</strong>
          </p>
          <table class="data">
            <thead>
              <tr>
                <th>Deployment</th>
                <th class="num">Weight</th>
                <th class="num">Price in / out (USD per 1M tokens)</th>
                <th class="num">In flight</th>
                <th class="num">Latency avg</th>
                <th class="num">Consecutive failures</th>
                <th>Cooling down until</th>
              </tr>
            </thead>
            <tbody>
              {model.targets.map((t) => {
                const h = byDeployment.get(t.deployment);
                return (
                  <tr key={t.deployment} class={h?.cooling_down ? 'cooling' : ''}>
                    <td>
                      <code>{t.deployment}</code>
                    </td>
                    <td class="num">{t.weight}</td>
                    <td class="num">{price(t.price)}</td>
                    <td class="num">{h?.in_flight ?? 0}</td>
                    <td class="num">{formatMs(h?.latency_ms_avg)}</td>
                    <td class="num">{h?.consecutive_failures ?? 0}</td>
                    <td>{h?.cooling_down_until ? formatTime(h.cooling_down_until) : 'healthy'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}
