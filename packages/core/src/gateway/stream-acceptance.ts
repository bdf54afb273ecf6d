import type { GatewayWarning } from '../adapter/gateway-warning.js';
import type { AcceptedCall, GatewayCallOptions } from './gateway-options.js';
import type { RouteTarget } from '../model/route-plan.js';

/**
 * Tells the caller of a streamed call when the first upstream accepted it ({@link GatewayCallOptions.onAccepted},
 * called at most once per call), and numbers the attempts for it. One instance per call.
 */
export class StreamAcceptance {
  #attempts = 0;
  #told = false;

  /**
   * @param onAccepted the caller's callback; `undefined` for calls that are not streamed.
   * @param headers the accounting headers of the call (known from admission).
   */
  constructor(
    private readonly onAccepted: ((accepted: AcceptedCall) => void) | undefined,
    private readonly headers: Record<string, string> = {},
  ) {}

  /**
   * The `onResponseHeaders` hook of one attempt on `target`: calls `accepted` (the plan's own, when the attempt counts
   * as answered at its headers) and, the first time an upstream accepts, the caller's callback with `warnings` (the
   * attempt's, filled while its request was built). Undefined when there is nothing to call.
   */
  hook(target: RouteTarget, warnings: readonly GatewayWarning[], accepted?: () => void): (() => void) | undefined {
    const attempt = ++this.#attempts;
    if (!this.onAccepted) return accepted;
    return () => {
      accepted?.();
      if (this.#told) return;
      this.#told = true;
      const call: AcceptedCall = {
        provider: target.provider,
        servedModel: target.model,
        upstreamModel: target.upstreamModel,
        attempts: attempt,
        warnings: [...warnings],
        headers: this.headers,
      };
      this.onAccepted?.(call);
    };
  }
}
