import type { RequestHandler } from 'express';
import gatewayPackage from '../../package.json' with { type: 'json' };
import { buildOpenApiDocument } from './build-openapi-document.js';

/** `GET /openapi.json` (no auth): the OpenAPI 3.1 document of the gateway's routes, built once on first request. */
export function openApiRoute(): RequestHandler {
  let body: string | undefined;
  return (_req, res) => {
    body ??= JSON.stringify(buildOpenApiDocument(gatewayPackage.version));
    res.type('application/json').send(body);
  };
}
