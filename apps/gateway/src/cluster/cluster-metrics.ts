import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

const REQUEST = 'switchyard:metrics-request';
const RESPONSE = 'switchyard:metrics-response';

interface MetricsRequest {
  type: typeof REQUEST;
  id: string;
}
interface MetricsResponse {
  type: typeof RESPONSE;
  id: string;
  body?: string;
  error?: string;
}

/**
 * In the cluster primary of `switchyard start --workers N`: answers a worker's request for the metrics of the whole
 * gateway with prom-client's AggregatorRegistry (counters and histograms summed over the workers, gauges per their
 * `aggregator`), so that a scrape of `/metrics`, whichever worker takes it, reports every worker.
 * @see https://github.com/siimon/prom-client#usage-with-nodejss-cluster-module
 */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: MetricsRequest) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (body) => worker.send({ type: RESPONSE, id: message.id, body } satisfies MetricsResponse),
      (error: unknown) =>
        worker.send({ type: RESPONSE, id: message.id, error: (error as Error).message } satisfies MetricsResponse),
    );
  });
}

/**
 * In a cluster worker: offers `registry` to the primary's aggregation and returns a function that asks the primary for
 * the whole cluster's metrics (Prometheus text), rejecting after `timeoutMs` (ms). Undefined outside a cluster worker.
 */
export function clusterMetricsClient(registry: Registry, timeoutMs = 5_000): (() => Promise<string>) | undefined {
  if (!cluster.isWorker || !process.send) return undefined;
  AggregatorRegistry.setRegistries([registry]);
  new AggregatorRegistry(); // installs prom-client's worker-side listener that answers the primary
  const pending = new Map<string, { resolve(body: string): void; reject(error: Error): void }>();
  process.on('message', (message: MetricsResponse) => {
    if (message?.type !== RESPONSE) return;
    const request = pending.get(message.id);
    if (!request) return;
    pending.delete(message.id);
    if (message.error !== undefined || message.body === undefined)
      request.reject(new Error(message.error ?? 'no metrics'));
    else request.resolve(message.body);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`the cluster primary sent no metrics within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (body) => {
          clearTimeout(timer);
          resolve(body);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      process.send!({ type: REQUEST, id } satisfies MetricsRequest);
    });
}
