/** One script call's part: its keys and arguments, and who waits for its answer. */
interface TurnPart {
  keys: string[];
  args: (string | number)[];
  resolve: (answer: string[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Sends a turn's parts in one call of `TURN_SCRIPT`: `numKeys` keys, then the arguments, as the lists `parts` that
 * ioredis flattens into the command (the settlement's keys, the admission's keys, the three counts, the settlement's
 * arguments, the admission's): no copy of each batch into one argument list.
 */
export type SendTurn = (numKeys: number, parts: (string | number)[][]) => Promise<[string[], string[]]>;

/**
 * The settlement batch and the admission batch of one event-loop turn (see `SettlementBatches`, `AdmissionBatches`)
 * sent to Redis as one `TURN_SCRIPT` call: one command, one reply, one command timer for both, instead of one
 * `EVALSHA` each. Parts asked during a turn go at its `setImmediate`; more than one batch of a kind in a turn (a batch
 * that reached its size limit) waits for the next call. A failed call rejects every part it carried, each then takes
 * its own outage path (admissions: `onError`; settlements: retried under their batch id).
 */
export class TurnScriptCalls {
  readonly #send: SendTurn;
  #settlement: TurnPart | undefined;
  #admission: TurnPart | undefined;
  #timer: NodeJS.Immediate | undefined;

  constructor(send: SendTurn) {
    this.#send = send;
  }

  /** Queues a settlement batch (`SETTLE_SCRIPT`'s keys and arguments); resolves with its answer. */
  settle(keys: string[], args: (string | number)[]): Promise<string[]> {
    return new Promise((resolve, reject) => {
      if (this.#settlement) this.#flush();
      this.#settlement = { keys, args, resolve, reject };
      this.#timer ??= setImmediate(() => this.#flush());
    });
  }

  /** Queues an admission batch (`ACQUIRE_SCRIPT`'s keys and arguments); resolves with its answer. */
  acquire(keys: string[], args: (string | number)[]): Promise<string[]> {
    return new Promise((resolve, reject) => {
      if (this.#admission) this.#flush();
      this.#admission = { keys, args, resolve, reject };
      this.#timer ??= setImmediate(() => this.#flush());
    });
  }

  /** Sends what is queued in one script call and hands each part its answer. */
  #flush(): void {
    clearImmediate(this.#timer);
    this.#timer = undefined;
    const settlement = this.#settlement;
    const admission = this.#admission;
    this.#settlement = undefined;
    this.#admission = undefined;
    if (!settlement && !admission) return;
    const sKeys = settlement?.keys ?? [];
    const sArgs = settlement?.args ?? [];
    const aKeys = admission?.keys ?? [];
    const aArgs = admission?.args ?? [];
    this.#send(sKeys.length + aKeys.length, [
      sKeys,
      aKeys,
      [sKeys.length, sArgs.length, aKeys.length],
      sArgs,
      aArgs,
    ]).then(
      ([settled, admitted]) => {
        settlement?.resolve(settled);
        admission?.resolve(admitted);
      },
      (error: unknown) => {
        settlement?.reject(error);
        admission?.reject(error);
      },
    );
  }
}
