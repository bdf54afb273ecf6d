/**
 * The endpoints a batch may run, each with the gateway operation of its lines (the operation whose price and
 * estimate a line gets).
 * @see https://platform.openai.com/docs/api-reference/batch/create
 */
export const BATCH_ENDPOINTS = {
  '/v1/chat/completions': 'chatCompletions',
  '/v1/embeddings': 'embeddings',
  '/v1/responses': 'openaiResponses',
  '/v1/completions': 'completions',
} as const;

/** An endpoint a batch may run. */
export type BatchEndpoint = keyof typeof BATCH_ENDPOINTS;

/** True when `endpoint` is one the gateway runs batches of. */
export function isBatchEndpoint(endpoint: unknown): endpoint is BatchEndpoint {
  return typeof endpoint === 'string' && Object.hasOwn(BATCH_ENDPOINTS, endpoint);
}
