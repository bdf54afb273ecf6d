import { budgetWindow } from './budget-window.js';
import type { VirtualKey } from './virtual-key.js';

/** One virtual key as held in memory. Its counters (requests, tokens, spend) live in the {@link Limiter}. */
export class KeyState {
  constructor(public key: VirtualKey) {}

  /**
   * Identity of the current budget window (`<period>:<start unix ms>`) and its start, in `timeZone` (IANA, default
   * UTC), never before the key's `budget_started_at`.
   */
  budgetWindow(now = Date.now(), timeZone = 'UTC'): { id: string; start: number } {
    return budgetWindow(this.key.budget_period, now, timeZone, this.key.budget_started_at);
  }
}
