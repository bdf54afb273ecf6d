/** A counting semaphore: at most `limit` holders at once; the others wait in arrival order. */
export class Semaphore {
  #held = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** Resolves once a slot is held; give it back with {@link release}. */
  async acquire(): Promise<void> {
    if (this.#held < this.limit) {
      this.#held++;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** Gives a slot back (to the first waiter, if any). */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held--;
  }
}
