import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError } from '@switchyard/core';
import express, { Router } from 'express';
import helmet from 'helmet';

/**
 * The Content-Security-Policy of `/ui`: scripts, styles, images and fonts only from the gateway itself (no inline
 * script or style elements, no `eval`), API calls only to the gateway, no frames, forms or plugins.
 * @see https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Content-Security-Policy
 */
export const CONSOLE_CSP = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'manifest-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

/**
 * Serves the admin console's built files (`dir`, the Vite output of `@switchyard/console`) as a router to mount at
 * `/ui`, with a strict CSP and the other headers of helmet (no sniffing, no framing, no referrer). The console keeps
 * the master key in `sessionStorage` and calls the admin API itself. Answers 503 when the console was not built.
 * @see https://helmetjs.github.io/
 */
export function serveConsole(dir: string): Router {
  const router = Router();
  router.use(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP },
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: false,
    }),
  );
  router.use((req, res, next) => {
    res.setHeader(
      'cache-control',
      req.path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    );
    next();
  });
  router.use(express.static(dir, { index: 'index.html', redirect: true, fallthrough: true }));
  router.use((req, _res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (!existsSync(join(dir, 'index.html'))) {
      throw new GatewayError({
        status: 503,
        type: 'server_error',
        code: 'console_not_built',
        message: 'The admin console is not built: run `pnpm build`.',
      });
    }
    next();
  });
  return router;
}
