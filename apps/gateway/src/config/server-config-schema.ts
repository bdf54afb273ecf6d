import { isIP } from 'node:net';
import { z } from 'zod';
import { ms } from './schema-units.js';

/** Whether `entry` is an IP address, or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function isCidrOrAddress(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * `server`: where and how the gateway listens, and the limits it holds clients to (connections, timeouts, bodies).
 */
export const serverConfigSchema = z
  .strictObject({
    host: z.string().min(1).default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(8787),
    /** Largest JSON body accepted, bytes or a size string such as `20mb`. */
    body_limit: z.union([z.number().int().positive(), z.string().min(1)]).default('20mb'),
    /** Gateway processes on one port (node:cluster): a number, or `auto` for one per core. Default 1. */
    workers: z.union([z.number().int().positive(), z.literal('auto')]).optional(),
    /** On SIGTERM/SIGINT, how long requests and streams in flight may take to finish, ms. */
    shutdown_timeout_ms: z.number().int().min(0).default(30_000),
    /**
     * Most client connections open at once; beyond it, 32 more for `/healthz` and `/readyz` only. Keep it well below
     * `ulimit -n`.
     */
    max_connections: z.number().int().positive().default(4096),
    /**
     * Most connections open at once from one client address (an IPv6 client: its /64); the client's oldest idle one
     * is closed to make room for a new one. Not applied to `trust_proxy` addresses.
     */
    max_connections_per_client: z.number().int().positive().default(1024),
    /**
     * Addresses or CIDR ranges of reverse proxies in front of the gateway: their connections are not capped per
     * client (every client behind a proxy shares its address; bound them at the proxy).
     */
    trust_proxy: z
      .array(
        z.string().refine((entry) => isCidrOrAddress(entry), {
          message: 'an IP address or CIDR range (10.0.0.0/8, fd00::/8)',
        }),
      )
      .default([]),
    /**
     * Connections the kernel completes and queues while the gateway is busy, before it accepts them (the `listen`
     * backlog; Linux caps it at `net.core.somaxconn`). Node's default, 511, reset some of a burst of thousands.
     */
    backlog: z.number().int().positive().default(4096),
    /** A client must send its request headers within this time, ms. */
    headers_timeout_ms: ms.default(20_000),
    /** A client must send its whole request (headers and body) within this time, ms. */
    request_timeout_ms: ms.default(300_000),
    /** A `: keep-alive` comment is sent on a stream idle for this long, ms. */
    stream_keepalive_ms: ms.default(15_000),
    /** A streaming client that reads nothing for this long is disconnected, ms. */
    client_write_timeout_ms: ms.default(60_000),
  })
  .prefault({});
