import type { z } from 'zod';
import { createBatchSchema } from '../batches/batches.js';
import { batchObjectSchema, fileObjectSchema, pageOf } from './batch-schemas.js';

type JsonObject = Record<string, unknown>;

/** What the document builder lends: a `$ref` to a zod schema registered once, a JSON body, error answers, the security. */
export interface PathHelpers {
  ref: (name: string, schema: z.ZodType, io: 'input' | 'output') => JsonObject;
  json: (schema: JsonObject) => JsonObject;
  errors: JsonObject;
  security: JsonObject[];
}

/**
 * The OpenAPI path items of `/v1/files` and `/v1/batches` (see `addFilesRoutes`, `addBatchesRoutes`).
 * @see https://platform.openai.com/docs/api-reference/files
 * @see https://platform.openai.com/docs/api-reference/batch
 */
export function filesAndBatchesPaths({ ref, json, errors, security }: PathHelpers): Record<string, JsonObject> {
  const ok = (schema: JsonObject, description = 'OK') => ({ '200': { description, ...json(schema) }, ...errors });
  const file = ref('FileObject', fileObjectSchema, 'output');
  const batch = ref('Batch', batchObjectSchema, 'output');
  const fileId = { name: 'file_id', in: 'path', required: true, schema: { type: 'string' } };
  const batchId = { name: 'batch_id', in: 'path', required: true, schema: { type: 'string' } };
  return {
    '/v1/files': {
      post: {
        summary: 'Upload a file (multipart; streamed to storage; files.max_bytes, default 512 MB)',
        security,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                required: ['file', 'purpose'],
                properties: {
                  file: { type: 'string', contentMediaType: 'application/octet-stream' },
                  purpose: { enum: ['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals'] },
                  'expires_after[anchor]': { const: 'created_at' },
                  'expires_after[seconds]': { type: 'integer', minimum: 3600, maximum: 2592000 },
                },
              },
            },
          },
        },
        responses: { ...ok(file), '413': errors['400'] },
      },
      get: {
        summary: "The calling key's files",
        security,
        parameters: [
          { name: 'purpose', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 10000, default: 10000 } },
          { name: 'order', in: 'query', schema: { enum: ['asc', 'desc'], default: 'desc' } },
          { name: 'after', in: 'query', schema: { type: 'string' } },
        ],
        responses: ok(ref('FileList', pageOf(fileObjectSchema), 'output')),
      },
    },
    '/v1/files/{file_id}': {
      get: { summary: 'A file of the calling key', security, parameters: [fileId], responses: ok(file) },
      delete: {
        summary: 'Delete a file of the calling key',
        security,
        parameters: [fileId],
        responses: ok({
          type: 'object',
          required: ['id', 'object', 'deleted'],
          properties: { id: { type: 'string' }, object: { const: 'file' }, deleted: { type: 'boolean' } },
        }),
      },
    },
    '/v1/files/{file_id}/content': {
      get: {
        summary: "A file's bytes (streamed)",
        security,
        parameters: [fileId],
        responses: {
          '200': {
            description: 'The bytes',
            content: {
              'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
            },
          },
          ...errors,
        },
      },
    },
    '/v1/batches': {
      post: {
        summary: 'Create a batch of requests from an uploaded JSONL file (run by the gateway, line by line)',
        security,
        requestBody: { required: true, ...json(ref('CreateBatchRequest', createBatchSchema, 'input')) },
        responses: ok(batch),
      },
      get: {
        summary: "The calling key's batches, newest first",
        security,
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'after', in: 'query', schema: { type: 'string' } },
        ],
        responses: ok(ref('BatchList', pageOf(batchObjectSchema), 'output')),
      },
    },
    '/v1/batches/{batch_id}': {
      get: {
        summary: 'A batch of the calling key, with live request_counts',
        security,
        parameters: [batchId],
        responses: ok(batch),
      },
    },
    '/v1/batches/{batch_id}/cancel': {
      post: {
        summary: 'Cancel a batch: running lines finish, the others fail batch_cancelled',
        security,
        parameters: [batchId],
        responses: { ...ok(batch), '409': errors['400'] },
      },
    },
  };
}
