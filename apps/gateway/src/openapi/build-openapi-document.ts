import { adminPaths } from './admin-paths.js';
import { filesAndBatchesPaths } from './batch-paths.js';
import { createDocumentParts, type JsonObject } from './document-parts.js';
import { frontDoorPaths } from './front-door-paths.js';
import { mediaPaths } from './media-paths.js';
import { modelListPaths } from './model-list-paths.js';
import { sessionPaths } from './session-paths.js';

/**
 * Builds the OpenAPI 3.1 document of Switchyard's own routes (`/v1/*`, `/admin/*`, health, metrics) from the zod
 * schemas the gateway validates with (zod 4's JSON Schema output, draft 2020-12, which OpenAPI 3.1 uses as is):
 * requests as their input type, answers as their output type, every error as OpenAI's error body.
 * @see https://spec.openapis.org/oas/v3.1.0
 * @see https://zod.dev/json-schema
 */
export function buildOpenApiDocument(version: string): JsonObject {
  const schemas: Record<string, JsonObject> = {};
  const parts = createDocumentParts(schemas);
  const { ref, json, errors, api } = parts;

  const paths: Record<string, JsonObject> = {
    ...frontDoorPaths(parts),
    ...mediaPaths(parts),
    ...modelListPaths(parts),
    ...adminPaths(parts),
    ...sessionPaths(parts),
    ...filesAndBatchesPaths({ ref, json, errors, security: api }),
    '/healthz': {
      get: {
        summary: 'Liveness',
        responses: {
          '200': { description: 'OK', ...json({ type: 'object', properties: { status: { const: 'ok' } } }) },
        },
      },
    },
    '/readyz': {
      get: {
        summary: 'Readiness (adapters, store, Redis, shutdown)',
        responses: {
          '200': { description: 'Ready' },
          '503': { description: 'Not ready: the failing checks with their reasons' },
        },
      },
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics (text format); the master key when metrics.auth is master',
        responses: { '200': { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/openapi.json': {
      get: { summary: 'This document', responses: { '200': { description: 'OK', ...json({ type: 'object' }) } } },
    },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard',
      version,
      description:
        'A self-hosted AI gateway: the OpenAI API under /v1 in front of many providers, and its admin API under /admin.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        gatewayKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A gateway key: from the config, or a virtual key (sk-sy-…)',
        },
        masterKey: { type: 'http', scheme: 'bearer', description: 'The admin master key (admin.master_key)' },
      },
    },
  };
}
