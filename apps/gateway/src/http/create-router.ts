import type { Accounts } from '@switchyard/accounts';
import type { Batches } from '../batches/batches.js';
import type { Files } from '../files/files.js';
import { type Gateway, GatewayError } from '@switchyard/core';
import { MemoryResponseStore, ResponsesFrontDoor } from '@switchyard/front-door-responses';
import { Router } from 'express';
import { authenticate } from './middleware/authenticate.js';
import { addChatCompletionsRoute } from './routes/chat-completions-route.js';
import { addBatchesRoutes } from './routes/batches-route.js';
import { addCompletionsRoute } from './routes/completions-route.js';
import { addImageEditsRoutes } from './routes/image-edits-route.js';
import { addEmbeddingsRoute } from './routes/embeddings-route.js';
import { addFilesRoutes } from './routes/files-route.js';
import { addRerankRoute } from './routes/rerank-route.js';
import { addModerationsRoute } from './routes/moderations-route.js';
import { addImageGenerationsRoute } from './routes/image-generations-route.js';
import { createMessagesRouter } from './routes/messages-router.js';
import { createModelsRouter } from './routes/models-route.js';
import { addResponsesRoutes } from './routes/responses-route.js';
import { createRouteDeps, type RouteDeps } from './routes/route-deps.js';
import { addSpeechRoute } from './routes/speech-route.js';
import { addTranscriptionsRoute } from './routes/transcriptions-route.js';
import { addUsageRoute } from './routes/usage-route.js';

/** Options of {@link createRouter}. */
export interface RouterOptions {
  /** Largest JSON body, bytes or a size string. Default `20mb`. */
  bodyLimit?: number | string;
  /** Virtual keys, limits and the usage ledger; adds `GET /v1/usage`. */
  accounts?: Accounts;
  /** The Responses API front door (its store of responses). Default: one with a bounded in-memory store. */
  responses?: ResponsesFrontDoor;
  /** Strings never sent to clients (gateway and upstream keys): redacted from mid-stream error events. */
  secrets?: readonly string[];
  /** Stream keep-alive interval and the slow-reader timeout, ms (see `sendSSE`). */
  sse?: { keepAliveMs?: number; writeTimeoutMs?: number };
  /** `/v1/files` (store and storage); without it the routes answer 404. */
  files?: Files;
  /** `/v1/batches` and a hook told of each new batch (the runner's `wake`); without it the routes answer 404. */
  batches?: { batches: Batches; onCreated?: () => void };
}

/**
 * The OpenAI-compatible API as an Express router, to mount at `/v1` (or under any prefix): every route requires a
 * gateway key. Needs {@link requestContext} before it and {@link handleErrors} after it (as {@link createApp} does).
 */
export function createRouter(gateway: Gateway, options: RouterOptions = {}): Router {
  const router = Router();
  const deps: RouteDeps = {
    ...createRouteDeps(gateway, options.bodyLimit ?? '20mb', options.accounts),
    secrets: options.secrets ?? [],
    sse: options.sse,
    ...(options.batches && { nativeBatches: options.batches.batches.runsNative }),
  };
  router.use('/messages', createMessagesRouter(deps));
  // Before the bearer check: Anthropic clients list models with `x-api-key`.
  router.use('/models', createModelsRouter(deps));
  router.use(authenticate(gateway));
  addChatCompletionsRoute(router, deps);
  addCompletionsRoute(router, deps);
  addEmbeddingsRoute(router, deps);
  addTranscriptionsRoute(router, deps);
  addSpeechRoute(router, deps);
  addImageGenerationsRoute(router, deps);
  addImageEditsRoutes(router, deps);
  addRerankRoute(router, deps);
  addModerationsRoute(router, deps);
  addResponsesRoutes(router, {
    ...deps,
    responses: options.responses ?? new ResponsesFrontDoor({ store: new MemoryResponseStore() }),
  });
  addUsageRoute(router, deps);
  if (options.files) addFilesRoutes(router, options.files);
  if (options.batches)
    addBatchesRoutes(router, options.batches.batches, options.bodyLimit ?? '20mb', options.batches.onCreated);
  router.use((req) => {
    throw new GatewayError({
      status: 404,
      type: 'invalid_request_error',
      message: `Invalid URL (${req.method} ${req.baseUrl}${req.path})`,
    });
  });
  return router;
}
