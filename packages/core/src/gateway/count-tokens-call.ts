import type { CallAccounting } from '../accounting/call-accounting.js';
import type { CallRunner } from './call-runner.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import { type CountTokensPreparer, runLocalCall } from './local-call.js';
import type { ModelRouter } from './model-router.js';
import { firstTargetServes } from './operation-plans.js';

/** What {@link countTokensCall} needs of the gateway: its call pipeline, router and accounting. */
export interface CountTokensDeps {
  runner: CallRunner;
  router: ModelRouter;
  accounting?: CallAccounting;
}

/**
 * `POST /v1/messages/count_tokens`: admitted (allow-list, rpm; no tokens or budget reserved) and booked at cost 0; the
 * upstream's count where the first deployment has `anthropicCountTokens` (routed as usual), else the estimate
 * (tokens). `prepare` validates the body (its 400 is booked like any refusal). Throws 404 for an unknown model, the
 * accounting's 401/403/429, upstream errors.
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export function countTokensCall(
  deps: CountTokensDeps,
  body: unknown,
  prepare: CountTokensPreparer,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<{ input_tokens: number }>> {
  return deps.runner.booked(body, options, async (booked) => {
    const { request, estimate } = prepare(body);
    const plan = deps.router.plan(request.model);
    if (firstTargetServes(plan, 'anthropicCountTokens')) {
      return deps.runner.simple('anthropicCountTokens', request, booked, (adapter, target, context) =>
        adapter.anthropicCountTokens!({ ...request, model: target.upstreamModel }, context),
      );
    }
    const work = async () => ({ input_tokens: await estimate() });
    return runLocalCall({
      accounting: deps.accounting,
      operation: 'anthropicCountTokens',
      request,
      plan,
      options: booked,
      work,
    });
  });
}
