import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Express } from 'express';

/** The request and response classes of {@link expressMessageClasses}, as `http.createServer` options take them. */
export interface ExpressMessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/**
 * Request and response classes for `http.createServer(options, app)` whose instances are born with `app`'s request and
 * response prototypes (`app.request`, `app.response`, themselves built on `http.IncomingMessage` and
 * `http.ServerResponse`). Express sets those prototypes on every request (`Object.setPrototypeOf`); on an object that
 * already has them that is a no-op. An object whose prototype is changed after it was created gets a hidden class of
 * its own in V8 at its next new property (Express adds a dozen to `req` and `res`), about 1 KiB of shape data per
 * request for as long as it is open, and property reads on `req`/`res` that no inline cache can share. With these
 * classes every request shares the same shapes. Behaviour is unchanged: same prototype chain, same constructors run.
 * @see https://nodejs.org/api/http.html#httpcreateserveroptions-requestlistener (`IncomingMessage`, `ServerResponse`)
 * @see https://github.com/expressjs/express/blob/v5.1.0/lib/application.js (`app.handle` sets the prototypes)
 */
export function expressMessageClasses(app: Express): ExpressMessageClasses {
  // `Reflect.construct` with this function as `new.target` runs Node's constructor on an object whose prototype is
  // `ExpressRequest.prototype` (= `app.request`), whether Node's constructor is a plain function or a class.
  function ExpressRequest(socket: Socket): IncomingMessage {
    return Reflect.construct(IncomingMessage, [socket], ExpressRequest);
  }
  ExpressRequest.prototype = app.request;
  function ExpressResponse(req: IncomingMessage, options?: unknown): ServerResponse {
    return Reflect.construct(ServerResponse, [req, options], ExpressResponse);
  }
  ExpressResponse.prototype = app.response;
  return {
    IncomingMessage: ExpressRequest as unknown as typeof IncomingMessage,
    ServerResponse: ExpressResponse as unknown as typeof ServerResponse,
  };
}
