import type { Router } from 'express';
import { addJsonOperationRoute } from './add-json-operation-route.js';
import type { RouteDeps } from './route-deps.js';

/**
 * `POST /v1/moderations`: text and image inputs classified in OpenAI's shape (`model` defaults to
 * `omni-moderation-latest`).
 * @see https://platform.openai.com/docs/api-reference/moderations/create
 */
export function addModerationsRoute(router: Router, deps: RouteDeps): void {
  addJsonOperationRoute(router, '/moderations', deps, (body, options) => deps.gateway.moderations(body, options));
}
