import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { GatewayError } from '../../src/index.js';

/** The upstream of the dispatch readers' tests; `url` is set once it listens (in `beforeAll`). */
export interface DispatchTestUpstream {
  url: string;
}

/**
 * A loopback HTTP upstream for the tests of the dispatch readers (`fetchUpstreamBody`, `streamUpstreamBody`), started
 * before the file's tests and closed after them. It serves the routes both readers are tested on, `/error` (429 with
 * `retry-after: 3` and an OpenAI error body) and `/hang` (answers after 5 s), and hands every other request to
 * `route`. Each request's body is read and dropped first.
 */
export function useDispatchTestUpstream(
  route: (req: IncomingMessage, res: ServerResponse) => void,
): DispatchTestUpstream {
  const upstream: DispatchTestUpstream = { url: '' };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      if (req.url === '/error') res.writeHead(429, { 'retry-after': '3' }).end('{"error":{"message":"slow down"}}');
      else if (req.url === '/hang') setTimeout(() => res.end('{}'), 5_000);
      else route(req, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return upstream;
}

/** A `mapError` that shows what it was given: `mapped <status>: <text> (retry-after <header>)`, as a GatewayError. */
export const mapError = (status: number, text: string, headers: Record<string, string | string[] | undefined>) =>
  new GatewayError({
    status,
    type: 'rate_limit_error',
    message: `mapped ${status}: ${text} (retry-after ${String(headers['retry-after'])})`,
  });
