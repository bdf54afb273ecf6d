import type { Router } from 'express';
import { addJsonOperationRoute } from './add-json-operation-route.js';
import type { RouteDeps } from './route-deps.js';

/** `POST /v1/images/generations`. */
export function addImageGenerationsRoute(router: Router, deps: RouteDeps): void {
  addJsonOperationRoute(router, '/images/generations', deps, (body, options) =>
    deps.gateway.imageGenerations(body, options),
  );
}
