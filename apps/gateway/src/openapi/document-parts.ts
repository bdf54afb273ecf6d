import { errorBodySchema } from '@switchyard/core';
import { z } from 'zod';

/** A JSON value of the OpenAPI document. */
export type JsonObject = Record<string, unknown>;

/**
 * The shared pieces every group of path items is built from: `$ref`s to zod schemas registered once in `schemas`,
 * JSON bodies, the error answers and the two security requirements (a gateway key, the master key).
 */
export interface DocumentParts {
  /** A `$ref` to the component schema `name` made from `schema` (its input or output type), registered once. */
  ref: (name: string, schema: z.ZodType, io: 'input' | 'output') => JsonObject;
  /** An `application/json` content object of `schema`. */
  json: (schema: JsonObject) => JsonObject;
  /** The error answers of every `/v1` operation (OpenAI's error body). */
  errors: Record<string, JsonObject>;
  /** The error answers of every `/admin` operation. */
  adminErrors: Record<string, JsonObject>;
  /** The gateway key security requirement. */
  api: JsonObject[];
  /** The master key security requirement. */
  admin: JsonObject[];
  /** A `POST` operation with a JSON request and a JSON answer, under the gateway key. */
  jsonOperation: (summary: string, request: JsonObject, answer: JsonObject) => JsonObject;
  /** The `from` / `to` query parameters (ISO-8601 or unix ms). */
  timeRange: JsonObject[];
  /** The `{id}` path parameter. */
  idParam: JsonObject;
}

/**
 * Makes the {@link DocumentParts} whose `ref` registers schemas in `schemas` (zod 4's JSON Schema output, draft
 * 2020-12, which OpenAPI 3.1 uses as is).
 * @see https://zod.dev/json-schema
 */
export function createDocumentParts(schemas: Record<string, JsonObject>): DocumentParts {
  const ref = (name: string, schema: z.ZodType, io: 'input' | 'output') => {
    if (!schemas[name]) {
      const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
        io,
        unrepresentable: 'any',
        target: 'draft-2020-12',
      }) as JsonObject;
      schemas[name] = json;
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  const json = (schema: JsonObject) => ({ content: { 'application/json': { schema } } });
  const error = { description: 'OpenAI-shaped error', ...json(ref('ErrorBody', errorBodySchema, 'output')) };
  const errors = {
    '400': error,
    '401': error,
    '404': error,
    '429': error,
    '500': error,
    '502': error,
    '503': error,
    '504': error,
  };
  const adminErrors = { '400': error, '401': error, '403': error, '404': error };
  const api = [{ gatewayKey: [] }];
  const admin = [{ masterKey: [] }];
  const jsonOperation = (summary: string, request: JsonObject, answer: JsonObject) => ({
    post: {
      summary,
      security: api,
      requestBody: { required: true, ...json(request) },
      responses: { '200': { description: 'OK', ...json(answer) }, ...errors },
    },
  });
  const timeRange = [
    { name: 'from', in: 'query', schema: { type: 'string' }, description: 'ISO-8601 time or unix ms (inclusive)' },
    { name: 'to', in: 'query', schema: { type: 'string' }, description: 'ISO-8601 time or unix ms (exclusive)' },
  ];
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

  return { ref, json, errors, adminErrors, api, admin, jsonOperation, timeRange, idParam };
}
