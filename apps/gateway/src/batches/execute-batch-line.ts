import type { BatchLineResult } from '@switchyard/accounts';
import {
  type Gateway,
  GatewayError,
  type GatewayCallOptions,
  isChunkStream,
  redactGatewayError,
} from '@switchyard/core';
import type { ResponsesFrontDoor } from '@switchyard/front-door-responses';
import type { BatchEndpoint } from './batch-endpoints.js';

/** What a line runs with: the gateway, the Responses front door (for `/v1/responses`), and who owns the batch. */
export interface LineContext {
  gateway: Gateway;
  responses: ResponsesFrontDoor;
  /** The batch owner (SHA-256 of its key): stored responses of `/v1/responses` lines are theirs. */
  owner: string;
  /** Gateway and upstream keys, redacted from error bodies. */
  secrets: readonly string[];
}

/** The 400 of a batch line that asks for a stream. */
const notStreamed = () =>
  new GatewayError({
    status: 400,
    type: 'invalid_request_error',
    param: 'stream',
    message: 'Batch requests cannot be streamed.',
  });

/** The answer body of one line's call, through the same path as a live request to `endpoint` (never streamed). */
async function call(
  context: LineContext,
  endpoint: BatchEndpoint,
  body: Record<string, unknown>,
  options: GatewayCallOptions,
): Promise<unknown> {
  const { gateway, responses, owner } = context;
  if (endpoint === '/v1/embeddings') return (await gateway.embeddings(body, options)).data;
  if (endpoint === '/v1/completions') {
    const result = await gateway.completions(body, options);
    if (Symbol.asyncIterator in result.data) throw notStreamed();
    return result.data;
  }
  if (endpoint === '/v1/chat/completions') {
    const result = await gateway.chatCompletions(body, options);
    if (isChunkStream(result.data)) throw notStreamed();
    return result.data;
  }
  const request = responses.validate(body);
  if (request.stream === true) throw notStreamed();
  if (gateway.supportsOpenAIResponses(request.model)) {
    const native = await responses.prepareNative(body, owner);
    const result = await gateway.openaiResponses(native.upstreamRequest, options);
    if ('events' in result.data)
      throw new GatewayError({
        status: 502,
        type: 'server_error',
        message: 'The upstream streamed a non-streamed response.',
      });
    return responses.completeNative(native, result.data.json);
  }
  const prepared = await responses.prepare(body, owner, { webSearch: gateway.supportsWebSearch(request.model) });
  const result = await gateway.chatCompletions(prepared.chatRequest, options).catch((error: unknown) => {
    throw responses.translateError(error);
  });
  if (isChunkStream(result.data))
    throw new GatewayError({
      status: 502,
      type: 'server_error',
      message: 'The upstream streamed a non-streamed response.',
    });
  return responses.complete(prepared, result.data);
}

/**
 * Runs one batch line (`body` as JSON text) through the gateway's normal call path for `endpoint` (routing, retries,
 * fallbacks, admission, metering; the ledger row carries `labels.batch_id`) and returns its result as the output
 * file line's `response`: the answer with status 200, or a failure's status and OpenAI error body (`failed`). Never
 * throws.
 * @see https://platform.openai.com/docs/api-reference/batch/request-output
 */
export async function executeBatchLine(
  context: LineContext,
  endpoint: BatchEndpoint,
  body: string,
  options: GatewayCallOptions & { requestId: string },
): Promise<BatchLineResult> {
  try {
    const answer = await call(context, endpoint, JSON.parse(body) as Record<string, unknown>, options);
    return { failed: false, response: { status_code: 200, request_id: options.requestId, body: answer } };
  } catch (error) {
    const failure = GatewayError.isInstance(error)
      ? error
      : new GatewayError({
          status: 500,
          type: 'server_error',
          message: 'The gateway failed to process the request.',
          cause: error,
        });
    const redacted = redactGatewayError(failure, context.secrets);
    return {
      failed: true,
      response: { status_code: redacted.status, request_id: options.requestId, body: redacted.toJSON() },
    };
  }
}
