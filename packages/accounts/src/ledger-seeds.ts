import type { AccountStore } from './account-store.js';
import type { UsageLedger } from './usage-ledger.js';
import type { UsageFilter } from './usage-row.js';

/**
 * What a limiter asks the ledger for (see the `seed` answer of `Limiter.acquire`): a key's spend since a budget
 * window began (USD), and its use in the last minute (admitted requests, tokens). Pending ledger rows are written
 * first; concurrent asks for the same key share one store query (a burst on a key the limiter does not know yet would
 * otherwise take one connection of the store's pool per call).
 */
export class LedgerSeeds {
  readonly #pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: AccountStore,
    private readonly ledger: UsageLedger,
  ) {}

  #shared<T>(id: string, query: () => Promise<T>): Promise<T> {
    let pending = this.#pending.get(id) as Promise<T> | undefined;
    if (!pending) {
      pending = (async () => {
        await this.ledger.flush();
        return query();
      })().finally(() => this.#pending.delete(id));
      this.#pending.set(id, pending);
    }
    return pending;
  }

  /** The key's spend since `start` (unix ms), USD. */
  spendSince(keyId: string, start: number): Promise<number> {
    return this.#shared(`spend:${keyId}:${start}`, () => this.store.spendSince(keyId, start));
  }

  /** The spend of the ledger rows matching `filter` (a team's, an end user's, a session's since a window began), USD. */
  spendWhere(filter: UsageFilter): Promise<number> {
    return this.#shared(
      `where:${JSON.stringify(filter)}`,
      async () => (await this.store.usageTotals(filter))[0]?.cost_usd ?? 0,
    );
  }

  /** The key's admitted requests and their tokens in the last minute. */
  recentUse(keyId: string): Promise<{ requests: number; tokens: number }> {
    return this.#shared(`recent:${keyId}`, () => this.store.recentUsage(keyId, Date.now() - 60_000));
  }

  /** The admitted requests and their tokens in the last minute of the rows matching `filter` (a team's, an end user's). */
  recentUseWhere(filter: UsageFilter): Promise<{ requests: number; tokens: number }> {
    return this.#shared(`recent-where:${JSON.stringify(filter)}`, () =>
      this.store.recentUsage(filter, Date.now() - 60_000),
    );
  }
}
