import { embeddingRequestSchema } from '../schemas/embedding-request.js';
import type { EmbeddingResponse } from '../schemas/embedding-response.js';
import type { CachedCalls } from './cached-calls.js';
import type { CallRunner } from './call-runner.js';
import type { GatewayCallOptions, GatewayCallResult } from './gateway-options.js';
import { normalizeEmbeddings } from './normalize-embeddings.js';
import { presentModel } from './present-model.js';
import { validateRequest } from './validate-request.js';

/**
 * `POST /v1/embeddings`: `body` validated (400 naming the field), served from the response cache where enabled, else
 * run through the pipeline; vectors come back in the requested `encoding_format` (`float` arrays or base64 of
 * little-endian float32) under the client's `model`. Throws 404 for an unknown model, the accounting's 401/403/429,
 * upstream errors.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 */
export function embeddingsCall(
  runner: CallRunner,
  cached: CachedCalls,
  body: unknown,
  options: GatewayCallOptions,
): Promise<GatewayCallResult<EmbeddingResponse>> {
  return runner.booked(body, options, async (booked) => {
    const request = validateRequest(embeddingRequestSchema, body);
    return cached.through(
      'embeddings',
      request,
      booked,
      () =>
        runner.simple('embeddings', request, booked, async (adapter, target, context) =>
          presentModel(
            normalizeEmbeddings(
              await adapter.embeddings!({ ...request, model: target.upstreamModel }, context),
              request.encoding_format,
            ),
            request.model,
          ),
        ),
      'embeddings',
    );
  });
}
