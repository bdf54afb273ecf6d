import type { CallAdmissionRequest, CallSettlement, CallTicket, ModelPrice, RoutePlan } from '@switchyard/core';
import type { Admission } from './admission.js';
import { targetPrice } from './catalog-price.js';
import { computeCostUsd } from './compute-cost.js';
import type { CallEstimateDetail } from './estimate-call.js';
import { countTextTokens, promptText } from './estimate-tokens.js';
import { imageCostUsd } from './image-cost.js';
import type { KeyAccountsPort } from './key-accounts-port.js';
import type { Principal } from './principal.js';
import { type Booked, cacheHitRow, type RowOwner, settlementRow, unusedAttemptsBooked } from './settlement-booking.js';

/** What {@link KeyCallTicket.settled} answers before `settle` is called: resolved at once. */
const SETTLED: Promise<void> = Promise.resolve();

/** Drops a settled promise's value. */
const ignore = (): void => {};

/** What {@link KeyCallTicket.settle} booked: the cost known at once (USD) and what it wrote in the limits. */
interface Settled {
  costUsd: number | undefined;
  limits: Promise<void>;
}

/**
 * What a call books for `prompt` and `completion` tokens (`estimated` when counted here, not reported): `base` (its
 * unused attempts, see `unusedAttemptsBooked`) plus the served attempt at `price` (USD per million tokens), or
 * `perImage` (USD) for images priced per image. Cache reads and writes and reasoning tokens have their own prices when
 * the upstream reported them.
 */
function bookedWith(
  base: Booked,
  perImage: number | undefined,
  price: ModelPrice | undefined,
  settlement: CallSettlement,
  prompt: number,
  completion: number,
  estimated: boolean,
): Booked {
  return {
    prompt: base.prompt + prompt,
    completion: base.completion + completion,
    costUsd:
      base.costUsd + (perImage ?? computeCostUsd(price, prompt, completion, estimated ? {} : (settlement.usage ?? {}))),
    estimated: base.estimated || estimated,
  };
}

/**
 * The ticket of one call admitted by `KeyAccounting.admit` (see core's `CallTicket`): the plan narrowed for the key, the
 * admission's `x-ratelimit-*` headers (made for this call alone: its price source is added to them, not to a copy), and
 * the settlement that books the call once, its ledger row made once with every column (see `settlementRow`).
 */
export class KeyCallTicket implements CallTicket, RowOwner {
  readonly headers: Record<string, string>;
  #settled = false;
  /** What {@link settle} wrote in the limits; never rejects (see `Accounts.settleRow` and `Accounts.release`). */
  #written: Promise<void> = SETTLED;

  constructor(
    private readonly accounts: KeyAccountsPort,
    private readonly principal: Principal,
    readonly admission: Admission,
    readonly keyId: string,
    private readonly request: CallAdmissionRequest,
    private readonly estimate: CallEstimateDetail,
    readonly plan: RoutePlan,
  ) {
    this.headers = admission.headers;
  }

  /** Books the call (see `CallTicket.settle`): the slot released first, then the limits settled and the row queued. */
  settle(settlement: CallSettlement): number | undefined {
    if (this.#settled) return undefined;
    this.#settled = true;
    // First: the slot is free before the answer reaches the client.
    const released = this.admission.slot ? this.accounts.release(this.principal, this.admission) : undefined;
    const { costUsd, limits } = this.#book(settlement);
    this.#written = released ? Promise.all([released, limits]).then(ignore) : limits;
    return costUsd;
  }

  /** Resolves once what {@link settle} wrote in the limits is applied (see `CallTicket.settled`); never rejects. */
  settled(): Promise<void> {
    return this.#written;
  }

  #row(settlement: CallSettlement, priceSource: Parameters<typeof settlementRow>[2], booked: Booked, discount: number) {
    return this.accounts.settleRow(
      this.principal,
      this.admission,
      settlementRow(this.request, settlement, priceSource, booked, discount, this),
    );
  }

  #book(settlement: CallSettlement): Settled {
    const { request, estimate, headers } = this;
    if (settlement.cacheHit) {
      // Served from the response cache: no upstream attempt, no tokens, no cost (the rpm limit counted it at admission).
      if (!settlement.stream)
        headers['x-switchyard-price-source'] = settlement.target ? targetPrice(settlement.target).source : 'none';
      const row = cacheHitRow(request, settlement, this);
      return { costUsd: 0, limits: this.accounts.settleRow(this.principal, this.admission, row) };
    }
    const answered = settlement.target !== undefined;
    // A tiered catalogue price is taken at the tier of the call's prompt tokens (reported, else estimated).
    const served = settlement.target
      ? targetPrice(settlement.target, settlement.usage?.prompt_tokens ?? estimate.promptTokens)
      : { price: undefined, source: 'none' as const };
    // A line of a batch is billed at the model's batch discount (`price.batch_discount`, default 1).
    const discount = request.labels?.batch_id ? (served.price?.batch_discount ?? 1) : 1;
    if (request.operation === 'anthropicCountTokens') {
      // Counting tokens costs nothing: booked with no tokens and cost 0, whatever the deployment's price.
      if (!settlement.stream) headers['x-switchyard-price-source'] = served.source;
      const none = { prompt: 0, completion: 0, costUsd: 0, estimated: false };
      return { costUsd: 0, limits: this.#row(settlement, served.source, none, discount) };
    }
    // Images priced per image (`price.images`) cost the images the upstream returned, not their tokens.
    const perImage =
      settlement.status === 200
        ? imageCostUsd(served.price, request.operation, request.request, settlement.images)
        : undefined;
    const base = unusedAttemptsBooked(settlement, estimate);
    // What is booked is made by a module function (`bookedWith`): no closure or context per call.
    const price = served.price;
    if (answered && !settlement.stream) headers['x-switchyard-price-source'] = served.source;
    const reported = settlement.usage?.prompt_tokens !== undefined || settlement.usage?.completion_tokens !== undefined;
    if (!answered || reported) {
      const booked = answered
        ? bookedWith(
            base,
            perImage,
            price,
            settlement,
            settlement.usage?.prompt_tokens ?? 0,
            settlement.usage?.completion_tokens ?? 0,
            false,
          )
        : bookedWith(base, perImage, price, settlement, 0, 0, false);
      return { costUsd: booked.costUsd, limits: this.#row(settlement, served.source, booked, discount) };
    }
    if (!settlement.stream) {
      // An answer without usage (e.g. speech, images): the prompt estimate, no completion tokens.
      const booked = bookedWith(base, perImage, price, settlement, estimate.promptTokens, 0, true);
      return { costUsd: booked.costUsd, limits: this.#row(settlement, served.source, booked, discount) };
    }
    // A stream whose upstream reported no usage (cut by the client, failed, or an upstream that never reports it):
    // count with the tokenizer, off the response path. Its settlement is not awaited before the stream ends (`limits`
    // resolves at once): a count can take seconds under load, and a client that stops reading at a failure event
    // would otherwise close the stream before its failure is noted.
    const task = this.#countThenRow(settlement, served.source, base, perImage, price, discount);
    this.accounts.track(task);
    return { costUsd: undefined, limits: Promise.resolve() };
  }

  /**
   * Books a stream whose upstream reported no usage: its prompt and completion counted with the tokenizer (else
   * estimated at 4 characters a token), then its row queued (see {@link settle}); off the response path. A method of
   * its own, so that the common call's `#book` makes no closure or context for it.
   */
  async #countThenRow(
    settlement: CallSettlement,
    priceSource: Parameters<typeof settlementRow>[2],
    base: Booked,
    perImage: number | undefined,
    price: ModelPrice | undefined,
    discount: number,
  ): Promise<void> {
    const { request, estimate } = this;
    let booked: Booked;
    try {
      const prompt = await countTextTokens(promptText(request.request));
      const completion = await countTextTokens(settlement.completionText ?? '');
      booked = bookedWith(base, perImage, price, settlement, prompt, completion, true);
    } catch {
      const completion = Math.ceil((settlement.completionText ?? '').length / 4);
      booked = bookedWith(base, perImage, price, settlement, estimate.promptTokens, completion, true);
    }
    await this.#row(settlement, priceSource, booked, discount);
  }
}
