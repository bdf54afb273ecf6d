import type { AdapterCallContext } from '../adapter/adapter-context.js';
import type { ProviderAdapter } from '../adapter/provider-adapter.js';
import type { z } from 'zod';
import type { CallOperation } from '../accounting/call-accounting.js';
import type { CallRunner } from './call-runner.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import { validateRequest } from './validate-request.js';
import { imageGenerationRequestSchema } from '../schemas/image-generation-request.js';
import type { ImagesResponse } from '../schemas/images-response.js';
import { moderationRequestSchema } from '../schemas/moderation-request.js';
import type { ModerationResponse } from '../schemas/moderation-response.js';
import { rerankRequestSchema } from '../schemas/rerank-request.js';
import type { RerankResponse } from '../schemas/rerank-response.js';

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

/** `POST /v1/rerank` (Cohere's shape): `documents` ordered by relevance to `query` (see {@link jsonOperationCall}). */
export function rerankCall(
  runner: CallRunner,
  body: unknown,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<RerankResponse>> {
  return jsonOperationCall(runner, 'rerank', rerankRequestSchema, body, options, (adapter, request, context) =>
    adapter.rerank!(request, context),
  );
}

/**
 * `POST /v1/moderations`: `model` defaults to `omni-moderation-latest`; 400 naming `input` when it is missing, empty or
 * of another type (see {@link jsonOperationCall}).
 * @see https://platform.openai.com/docs/api-reference/moderations/create
 */
export function moderationsCall(
  runner: CallRunner,
  body: unknown,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<ModerationResponse>> {
  return jsonOperationCall(runner, 'moderations', moderationRequestSchema, body, options, (adapter, request, context) =>
    adapter.moderations!(request, context),
  );
}

/**
 * `POST /v1/images/generations` (see {@link jsonOperationCall}).
 * @see https://platform.openai.com/docs/api-reference/images/create
 */
export function imageGenerationsCall(
  runner: CallRunner,
  body: unknown,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<ImagesResponse>> {
  return jsonOperationCall(
    runner,
    'imageGenerations',
    imageGenerationRequestSchema,
    body,
    options,
    (adapter, request, context) => adapter.imageGenerations!(request, context),
  );
}
