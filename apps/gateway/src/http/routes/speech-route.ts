import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Router } from 'express';
import { applyCallHeaders, noteModel } from '../apply-call-headers.js';
import { parseJsonBody } from '../middleware/parse-json-body.js';
import { callOptions } from '../call-options.js';
import { locals } from '../request-locals.js';
import type { RouteDeps } from './route-deps.js';

/** `POST /v1/audio/speech`: audio bytes piped as they arrive, with the upstream's content type. */
export function addSpeechRoute(router: Router, { gateway, bodyLimit, providerOf }: RouteDeps): void {
  router.post('/audio/speech', ...parseJsonBody(bodyLimit), async (req, res) => {
    noteModel(res, req.body?.model, providerOf);
    const result = await gateway.speech(req.body, callOptions(req, res));
    applyCallHeaders(res, result);
    res.status(200).type(result.data.contentType);
    try {
      await pipeline(Readable.from(result.data.body), res);
    } catch (error) {
      if (!locals(res).signal.aborted) locals(res).error = error;
      res.destroy();
    }
  });
}
