import { budgetWindowStart } from './budget-window.js';
import { TokenBucket } from './token-bucket.js';
import type { VirtualKey } from './virtual-key.js';

/** Live limits of one key in this process: request and token buckets, and spend (USD) in the current budget window. */
export class KeyState {
  requests?: TokenBucket;
  tokens?: TokenBucket;
  windowStart: number;

  constructor(
    public key: VirtualKey,
    public spentUsd = 0,
    now = Date.now(),
  ) {
    this.windowStart = budgetWindowStart(key.budget_period, now);
    this.applyLimits();
  }

  /** (Re)creates the buckets after the key's limits changed. */
  applyLimits(): void {
    this.requests = this.key.rpm_limit ? new TokenBucket(this.key.rpm_limit) : undefined;
    this.tokens = this.key.tpm_limit ? new TokenBucket(this.key.tpm_limit) : undefined;
  }

  /** Spend in the current window, resetting it when a new day or month began. */
  spend(now = Date.now()): number {
    const start = budgetWindowStart(this.key.budget_period, now);
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.spentUsd = 0;
    }
    return this.spentUsd;
  }
}
