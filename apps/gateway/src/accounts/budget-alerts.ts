import { createHmac, randomUUID } from 'node:crypto';
import type { BudgetCrossing } from '@switchyard/accounts';
import type { Logger } from 'pino';

/** Options of {@link BudgetAlerts}. */
export interface BudgetAlertsOptions {
  /** Where events are POSTed (config `alerts.webhook_url`); none = log lines only. */
  webhookUrl?: string;
  /** HMAC-SHA256 key of the signature (config `alerts.secret`). */
  secret?: string;
  logger: Logger;
  /** Deliveries tried per event (the first and the retries). Default 6. */
  attempts?: number;
  /** Wait before the first retry, ms; doubled for each next one (0.5 s, 1 s, 2 s, 4 s, 8 s). Default 500. */
  backoffMs?: number;
  /** Longest wait for one delivery, ms. Default 5,000. */
  timeoutMs?: number;
  /** Most events waiting for delivery; beyond it new events are dropped (and logged). Default 1,000. */
  maxQueued?: number;
}

/** The JSON body of one alert (see {@link BudgetAlerts}). */
export interface BudgetAlertEvent extends BudgetCrossing {
  /** `evt_` and 32 hex digits; the same on every retry of one event. */
  event_id: string;
  type: 'budget.threshold_crossed';
  /** ISO-8601. */
  created_at: string;
}

/** `sha256=<hex>`: HMAC-SHA256 of `body` (the exact bytes sent) under `secret`. */
export function signAlertBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Budget alerts: for each threshold a key, team, end user or session crosses (see `budgetCrossings`), one log line
 * (warn at 100 %, info at 80 %) and, with a webhook, one JSON POST (`BudgetAlertEvent`) with
 * `x-switchyard-signature: sha256=<HMAC-SHA256 of the body under secret>` and `x-switchyard-event-id`. A delivery that
 * fails (network error, timeout, non-2xx answer) is retried with exponential backoff; none of it ever delays a call
 * (deliveries run in the background, at most `maxQueued` waiting).
 */
export class BudgetAlerts {
  readonly #options: BudgetAlertsOptions;
  #queued = 0;
  #closed = false;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inflight = new Set<Promise<void>>();

  constructor(options: BudgetAlertsOptions) {
    this.#options = options;
  }

  /** Logs and (with a webhook) sends one event per crossing. Never throws. */
  notify(crossings: readonly BudgetCrossing[]): void {
    for (const crossing of crossings) {
      const event: BudgetAlertEvent = {
        event_id: `evt_${randomUUID().replaceAll('-', '')}`,
        type: 'budget.threshold_crossed',
        created_at: new Date().toISOString(),
        ...crossing,
      };
      const { logger } = this.#options;
      const line = `budget alert: ${crossing.subject} ${crossing.id} passed ${Math.round(crossing.threshold * 100)} % of its budget (${crossing.spend_usd} of ${crossing.budget_usd} USD)`;
      (crossing.threshold >= 1 ? logger.warn.bind(logger) : logger.info.bind(logger))(
        { alert: { ...crossing, event_id: event.event_id } },
        line,
      );
      if (!this.#options.webhookUrl || this.#closed) continue;
      if (this.#queued >= (this.#options.maxQueued ?? 1_000)) {
        logger.error({ event_id: event.event_id }, 'budget alert dropped: too many alerts waiting for delivery');
        continue;
      }
      this.#queued++;
      this.#deliver(event, JSON.stringify(event), 1);
    }
  }

  #deliver(event: BudgetAlertEvent, body: string, attempt: number): void {
    const { webhookUrl, secret = '', logger } = this.#options;
    const task = (async () => {
      let failure: string;
      try {
        const response = await fetch(webhookUrl as string, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-switchyard-signature': signAlertBody(body, secret),
            'x-switchyard-event-id': event.event_id,
            'user-agent': 'switchyard-alerts',
          },
          body,
          signal: AbortSignal.timeout(this.#options.timeoutMs ?? 5_000),
        });
        await response.body?.cancel();
        if (response.ok) {
          this.#queued--;
          return;
        }
        failure = `HTTP ${response.status}`;
      } catch (error) {
        failure = (error as Error).message;
      }
      const attempts = this.#options.attempts ?? 6;
      if (attempt >= attempts || this.#closed) {
        this.#queued--;
        logger.error({ event_id: event.event_id, attempts: attempt, failure }, 'budget alert not delivered');
        return;
      }
      const timer = setTimeout(
        () => {
          this.#timers.delete(timer);
          this.#deliver(event, body, attempt + 1);
        },
        (this.#options.backoffMs ?? 500) * 2 ** (attempt - 1),
      );
      timer.unref();
      this.#timers.add(timer);
    })();
    this.#inflight.add(task);
    void task.finally(() => this.#inflight.delete(task));
  }

  /** Stops retrying; waits for deliveries in flight (each bounded by `timeoutMs`). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#inflight]);
  }
}
