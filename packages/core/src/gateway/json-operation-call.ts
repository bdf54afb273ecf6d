import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import type { z } from 'zod';
import type { CallOperation } from '../accounting/call-accounting.js';
import type { CallRunner } from './call-runner.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import { validateRequest } from './validate-request.js';

/**
 * One call of an operation that takes a JSON body and answers JSON (images, rerank, moderations): `body` validated with
 * `schema` (400 naming the field), then run through the pipeline on `operation`'s deployments, each attempt calling
 * `invoke` with the request whose `model` is the deployment's upstream id. Throws 404 for an unknown model, 400
 * `unsupported_operation` when the model's provider lacks the operation, upstream errors.
 */
export function jsonOperationCall<S extends z.ZodType<{ model: string }>, R>(
  runner: CallRunner,
  operation: CallOperation,
  schema: S,
  body: unknown,
  options: GatewayCallOptions,
  invoke: (adapter: ProviderAdapter, request: z.infer<S>, context: AdapterCallContext) => Promise<R>,
): Promise<GatewayCallResult<R>> {
  return runner.booked(body, options, async (booked) => {
    const request = validateRequest(schema, body) as z.infer<S> & Record<string, unknown>;
    return runner.simple(operation, request, booked, (adapter, target, context) =>
      invoke(adapter, { ...request, model: target.upstreamModel }, context),
    );
  });
}
