import type { Router } from 'express';
import { addJsonOperationRoute } from './add-json-operation-route.js';
import type { RouteDeps } from './route-deps.js';

/** `POST /v1/embeddings`: vectors as float arrays or base64, as asked. */
export function addEmbeddingsRoute(router: Router, deps: RouteDeps): void {
  addJsonOperationRoute(router, '/embeddings', deps, (body, options) => deps.gateway.embeddings(body, options));
}
