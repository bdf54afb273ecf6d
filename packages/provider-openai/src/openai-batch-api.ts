import {
  type AdapterCallContext,
  type NativeBatchApi,
  readUpstreamJson,
  sendUpstreamRequest,
  UpstreamFormData,
  type UpstreamRequestOptions,
  upstreamBatchSchema,
  upstreamFileSchema,
  pipeUpstreamBytes,
} from '@switchyard/core';
import type { z } from 'zod';

/** The endpoints OpenAI runs batches of. @see https://platform.openai.com/docs/api-reference/batch/create */
export const OPENAI_BATCH_ENDPOINTS = ['/v1/chat/completions', '/v1/embeddings', '/v1/responses', '/v1/completions'];

/** What one upstream call of the batch API sends: path (under the API root), method, body. */
export interface BatchApiInit {
  method?: 'GET' | 'POST';
  body?: string | UpstreamFormData;
  headers?: Record<string, string>;
}

/** Options of {@link openAIBatchApi}. */
export interface OpenAIBatchApiOptions {
  /** The request options of one call to `path` (`/files`, `/batches/{id}`...): URL, auth headers, error mapping. */
  call: (path: string, context: AdapterCallContext, init: BatchApiInit) => UpstreamRequestOptions;
  /** The gateway endpoints the upstream runs batches of. */
  endpoints: readonly string[];
  /** The endpoint as the upstream names it. Default: as it is (`/v1/chat/completions`). */
  endpointPath?: (endpoint: string) => string;
}

/**
 * OpenAI's Batch API (also Azure OpenAI's, with its own paths): `POST /files` (multipart, `purpose=batch`, the file
 * streamed from its Blob), `POST /batches`, `GET /batches/{id}`, `POST /batches/{id}/cancel`, `GET /files/{id}/content`
 * (streamed). Answers are read through core's `upstreamBatchSchema` and `upstreamFileSchema`.
 * @see https://platform.openai.com/docs/api-reference/batch
 * @see https://platform.openai.com/docs/api-reference/files/create
 */
export function openAIBatchApi(options: OpenAIBatchApiOptions): NativeBatchApi {
  const { call } = options;
  const json = async <T>(path: string, context: AdapterCallContext, init: BatchApiInit, schema: z.ZodType<T>) => {
    const response = await sendUpstreamRequest(call(path, context, init));
    return readUpstreamJson(context.provider, response, context.signal, schema);
  };
  const id = (value: string) => encodeURIComponent(value);
  return {
    endpoints: options.endpoints,
    endpointPath: options.endpointPath ?? ((endpoint) => endpoint),
    async uploadFile(file, context) {
      const form = new UpstreamFormData();
      form.append('purpose', 'batch');
      form.append('file', file.data, file.filename);
      const uploaded = await json('/files', context, { body: form }, upstreamFileSchema);
      return { id: uploaded.id };
    },
    createBatch: (request, context) =>
      json(
        '/batches',
        context,
        { body: JSON.stringify(request), headers: { 'content-type': 'application/json' } },
        upstreamBatchSchema,
      ),
    retrieveBatch: (batchId, context) =>
      json(`/batches/${id(batchId)}`, context, { method: 'GET' }, upstreamBatchSchema),
    cancelBatch: (batchId, context) =>
      json(`/batches/${id(batchId)}/cancel`, context, { method: 'POST' }, upstreamBatchSchema),
    async fileContent(fileId, context) {
      const response = await sendUpstreamRequest(call(`/files/${id(fileId)}/content`, context, { method: 'GET' }));
      return pipeUpstreamBytes(context.provider, response.body, context.signal);
    },
  };
}
