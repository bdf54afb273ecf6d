/**
 * A token bucket holding at most `capacity` units, refilled continuously at `capacity` per `windowMs` (so an rpm limit
 * of 60 admits 60 at once, then one per second). Node runs one callback at a time, so take-and-check is atomic:
 * concurrent requests cannot be over-admitted. The level may go negative when a call used more than was reserved.
 */
export class TokenBucket {
  #level: number;
  #updated: number;

  constructor(
    public capacity: number,
    readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {
    this.#level = capacity;
    this.#updated = now();
  }

  #refill(): void {
    const now = this.now();
    this.#level = Math.min(this.capacity, this.#level + ((now - this.#updated) * this.capacity) / this.windowMs);
    this.#updated = now;
  }

  /**
   * Changes the capacity (and the refill rate with it) keeping the current level, capped at the new capacity: a
   * changed limit never refills the bucket.
   */
  resize(capacity: number): void {
    this.#refill();
    this.capacity = capacity;
    this.#level = Math.min(this.#level, capacity);
  }

  /** Units available now (may be negative). */
  get remaining(): number {
    this.#refill();
    return this.#level;
  }

  /** Takes `amount` units if at least that many are available; returns whether it did. */
  tryTake(amount: number): boolean {
    this.#refill();
    if (this.#level < amount) return false;
    this.#level -= amount;
    return true;
  }

  /** Adds (positive) or removes (negative) units without a check, e.g. to settle an estimate against actual usage. */
  adjust(amount: number): void {
    this.#refill();
    this.#level = Math.min(this.capacity, this.#level + amount);
  }

  /** Milliseconds until `amount` units are available (0 when they are). */
  msUntil(amount: number): number {
    this.#refill();
    const missing = Math.min(amount, this.capacity) - this.#level;
    return missing <= 0 ? 0 : Math.ceil((missing * this.windowMs) / this.capacity);
  }
}
