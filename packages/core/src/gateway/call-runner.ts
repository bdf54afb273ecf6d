import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import type { PlanOutcome } from '../routing/execute-plan.js';
import type { CallOperation } from '../accounting/call-accounting.js';
import type { Metered } from './call-metering.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import type { RequiredCapability } from '../model/model-capabilities.js';
import type { RouteTarget } from '../model/route-plan.js';

/** Runs one attempt of a call on a deployment: the adapter, its target (upstream model id) and the call's context. */
export type AttemptRun<T> = (adapter: ProviderAdapter, target: RouteTarget, context: AdapterCallContext) => Promise<T>;

/** What {@link CallRunner.call} resolves with: the plan's outcome, the attempt's warnings and the metering of the call. */
export interface RunningCall<T> {
  outcome: PlanOutcome<T>;
  warnings: GatewayWarning[];
  metered?: Metered;
}

/**
 * The gateway's call pipeline as the operations in their own modules use it (the `Gateway` class holds it): every call
 * goes through the same keys, admission (limits, budgets), routing (retries, fallbacks, hedging), metering and ledger.
 */
export interface CallRunner {
  /** Runs `run` so that a call refused before admission (400, 404, 499) is still booked (see `bookRefusal`). */
  booked<T>(body: unknown, options: GatewayCallOptions, run: (options: GatewayCallOptions) => Promise<T>): Promise<T>;
  /**
   * Admits `request` (its `model` routed for `operation`), runs `run` on the plan's deployments and releases the attempt;
   * the call is settled (a ledger row, usage read from the answer's `usage`) before it resolves.
   */
  simple<T>(
    operation: CallOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
    run: AttemptRun<T>,
  ): Promise<GatewayCallResult<T>>;
  /**
   * As `simple`, but the attempt is not released nor the call settled: for streams, which the caller guards and settles
   * when they end. `acceptOnHeaders` false: the first-byte timer runs until `run` resolves (a peeked first event).
   * `stream` marks the call as a stream for admission and metering.
   */
  call<T>(
    operation: CallOperation,
    request: Record<string, unknown>,
    options: GatewayCallOptions,
    run: AttemptRun<T>,
    acceptOnHeaders?: boolean,
    needs?: readonly RequiredCapability[],
  ): Promise<RunningCall<T>>;
}
