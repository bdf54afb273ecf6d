import { budgetWindowStart } from './budget-window.js';
import type { VirtualKey } from './virtual-key.js';

/** One virtual key as held in memory. Its counters (requests, tokens, spend) live in the {@link Limiter}. */
export class KeyState {
  constructor(public key: VirtualKey) {}

  /** Identity of the current budget window (`<period>:<start unix ms>`) and its start, UTC. */
  budgetWindow(now = Date.now()): { id: string; start: number } {
    const start = budgetWindowStart(this.key.budget_period, now);
    return { id: `${this.key.budget_period}:${start}`, start };
  }
}
