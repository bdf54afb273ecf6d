import { randomUUID } from 'node:crypto';
import type { RealtimeUsage, RouteTarget, SessionResponseReport } from '@switchyard/core';

/** Most responses of one session tracked as in progress at once (older ones are booked as cut when exceeded). */
export const MAX_OPEN_RESPONSES = 64;

interface OpenResponse {
  startedAt: number;
  firstEventAt?: number;
}

/**
 * Times the responses of one session: a response starts at the client's `response.create` (or, for responses the
 * server starts itself, e.g. with voice activity detection, at `response.created`) and ends at `response.done`, whose
 * report carries the usage. Responses still open when the session ends are reported with the session's final status.
 */
export class ResponseMeter {
  readonly #open = new Map<string, OpenResponse>();
  #requestedAt?: number;

  constructor(private readonly target: RouteTarget) {}

  /** Responses started and not done. */
  get inProgress(): number {
    return this.#open.size;
  }

  /** The client sent `response.create`. */
  requested(now = performance.now()): void {
    this.#requestedAt ??= now;
  }

  /** The server sent `response.created` for response `id`. Returns the report of a response evicted past {@link MAX_OPEN_RESPONSES}. */
  created(id: string | undefined, now = performance.now()): SessionResponseReport | undefined {
    const startedAt = this.#requestedAt ?? now;
    this.#requestedAt = undefined;
    this.#open.set(id ?? `resp_sy_${randomUUID()}`, { startedAt, firstEventAt: now });
    if (this.#open.size <= MAX_OPEN_RESPONSES) return undefined;
    const [oldest] = this.#open.keys();
    return this.#cut(oldest as string, 499, now);
  }

  /** The server sent `response.done` for response `id` with `usage`: its report. */
  done(id: string | undefined, usage: RealtimeUsage | undefined, now = performance.now()): SessionResponseReport {
    const key =
      id !== undefined && this.#open.has(id) ? id : id === undefined ? this.#open.keys().next().value : undefined;
    const open = key !== undefined ? this.#open.get(key) : undefined;
    if (key !== undefined) this.#open.delete(key);
    const startedAt = open?.startedAt ?? this.#requestedAt ?? now;
    if (!open) this.#requestedAt = undefined;
    return {
      responseId: id ?? key ?? `resp_sy_${randomUUID()}`,
      target: this.target,
      ...(usage && { usage }),
      status: 200,
      latencyMs: now - startedAt,
      ...(open?.firstEventAt !== undefined && { ttfbMs: open.firstEventAt - startedAt }),
    };
  }

  #cut(id: string, status: number, now: number): SessionResponseReport {
    const open = this.#open.get(id);
    this.#open.delete(id);
    return {
      responseId: id,
      target: this.target,
      status,
      latencyMs: now - (open?.startedAt ?? now),
      ...(open?.firstEventAt !== undefined && { ttfbMs: open.firstEventAt - (open.startedAt ?? now) }),
    };
  }

  /** Reports every response still open with `status` (the session ended in the middle of them), and forgets them. */
  cutAll(status: number, now = performance.now()): SessionResponseReport[] {
    return [...this.#open.keys()].map((id) => this.#cut(id, status, now));
  }
}
