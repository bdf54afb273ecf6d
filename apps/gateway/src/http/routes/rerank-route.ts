import type { Router } from 'express';
import { addJsonOperationRoute } from './add-json-operation-route.js';
import type { RouteDeps } from './route-deps.js';

/**
 * `POST /v1/rerank` (Cohere's shape, which Jina, Voyage and vLLM follow too): documents ordered by relevance to the
 * query, served by adapters that implement `rerank` (Cohere).
 * @see https://docs.cohere.com/reference/rerank
 */
export function addRerankRoute(router: Router, deps: RouteDeps): void {
  addJsonOperationRoute(router, '/rerank', deps, (body, options) => deps.gateway.rerank(body, options));
}
