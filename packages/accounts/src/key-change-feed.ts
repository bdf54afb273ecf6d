/**
 * Carries key changes between replicas (e.g. Redis pub/sub), so that a key created, changed or revoked on one is
 * honoured by all within a second. {@link Accounts} publishes after each admin change and reloads keys it hears about.
 */
export interface KeyChangeFeed {
  /** Announces that key `id` was created, changed or revoked (after the store has it). */
  publish(id: string): Promise<void>;
  /** Registers a listener: key `id` changed somewhere, or `undefined` when changes may have been missed (reload all). */
  subscribe(listener: (id: string | undefined) => void): void;
}
