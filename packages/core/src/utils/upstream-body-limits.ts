import type { Dispatcher } from 'undici';
import { GatewayError } from '../errors/gateway-error.js';

/** Upper bounds on what the gateway reads from an upstream, bytes. Unset fields use {@link DEFAULT_UPSTREAM_BODY_LIMITS}. */
export interface UpstreamBodyLimits {
  /** A whole non-streamed answer (JSON or text). Default 67,108,864 (64 MiB). */
  maxResponseBytes?: number;
  /** One server-sent event of a stream. Default 8,388,608 (8 MiB). */
  maxEventBytes?: number;
  /** An error answer (status >= 400); the rest is discarded. Default 65,536 (64 KiB). */
  maxErrorBytes?: number;
}

/** The default {@link UpstreamBodyLimits}, bytes. */
export const DEFAULT_UPSTREAM_BODY_LIMITS: Required<UpstreamBodyLimits> = {
  maxResponseBytes: 64 * 1024 * 1024,
  maxEventBytes: 8 * 1024 * 1024,
  maxErrorBytes: 64 * 1024,
};

/**
 * What the gateway gives an adapter for its upstream calls (`AdapterCallContext.upstream`); adapters pass it on to
 * `sendUpstreamRequest` as `upstream`. All fields are optional, so adapters called outside a gateway still work.
 */
export interface UpstreamCallSettings {
  /** The gateway instance's connection pool (its own connect timeout). Default: the process-wide pool. */
  dispatcher?: Dispatcher;
  /** The provider's body limits (config `providers.<name>.limits`). */
  limits?: UpstreamBodyLimits;
  /** Called once the upstream answered with a status below 400 (its headers are in): the call was accepted. */
  onResponseHeaders?: () => void;
}

/** Resolves limits over the defaults. */
export function resolveBodyLimits(limits?: UpstreamBodyLimits): Required<UpstreamBodyLimits> {
  return {
    maxResponseBytes: limits?.maxResponseBytes ?? DEFAULT_UPSTREAM_BODY_LIMITS.maxResponseBytes,
    maxEventBytes: limits?.maxEventBytes ?? DEFAULT_UPSTREAM_BODY_LIMITS.maxEventBytes,
    maxErrorBytes: limits?.maxErrorBytes ?? DEFAULT_UPSTREAM_BODY_LIMITS.maxErrorBytes,
  };
}

const CONFIG_KEY: Record<keyof UpstreamBodyLimits, string> = {
  maxResponseBytes: 'max_response_bytes',
  maxEventBytes: 'max_event_bytes',
  maxErrorBytes: 'max_error_bytes',
};
const WHAT: Record<keyof UpstreamBodyLimits, string> = {
  maxResponseBytes: 'response body',
  maxEventBytes: 'stream event',
  maxErrorBytes: 'error body',
};

/**
 * 502 `upstream_response_too_large`: the upstream sent more than a limit allows. The message names the provider, the
 * limit in bytes and its config key (`providers.<name>.limits.<key>`).
 */
export function upstreamResponseTooLargeError(
  provider: string,
  limit: keyof UpstreamBodyLimits,
  bytes: number,
): GatewayError {
  return new GatewayError({
    status: 502,
    type: 'server_error',
    code: 'upstream_response_too_large',
    message: `The upstream provider '${provider}' sent a ${WHAT[limit]} larger than the ${bytes} byte limit (providers.${provider}.limits.${CONFIG_KEY[limit]}).`,
  });
}

/**
 * Collects an upstream body within one of its limits: {@link declare} checks a `content-length` before any byte is read,
 * {@link add} each read. Both throw 502 `upstream_response_too_large` naming the provider and the limit
 * ({@link upstreamResponseTooLargeError}) once the body is longer than `maxBytes`; the caller then stops reading and
 * closes the connection. Shared by the stream and the `dispatch` readers of whole bodies.
 */
export class CappedBody {
  readonly #parts: Buffer[] = [];
  #size = 0;

  constructor(
    readonly provider: string,
    readonly limit: keyof UpstreamBodyLimits,
    readonly maxBytes: number,
  ) {}

  /** Checks the `content-length` the upstream announced (absent or not a number: nothing to check). */
  declare(contentLength: string | string[] | undefined): void {
    if (Number(contentLength) > this.maxBytes)
      throw upstreamResponseTooLargeError(this.provider, this.limit, this.maxBytes);
  }

  /** Adds one read of the body. */
  add(part: Buffer): void {
    this.#size += part.length;
    if (this.#size > this.maxBytes) throw upstreamResponseTooLargeError(this.provider, this.limit, this.maxBytes);
    this.#parts.push(part);
  }

  /** The body read so far, as one buffer. */
  bytes(): Buffer {
    return this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#size);
  }
}

interface BodyInfo {
  provider: string;
  limits: Required<UpstreamBodyLimits>;
}
const bodies = new WeakMap<object, BodyInfo>();

/** Remembers which provider and limits apply to an upstream response body (set by `sendUpstreamRequest`). */
export function registerUpstreamBody(body: object, provider: string, limits: Required<UpstreamBodyLimits>): void {
  bodies.set(body, { provider, limits });
}

/** The provider and limits of an upstream response body, when it came from `sendUpstreamRequest`. */
export function upstreamBodyInfo(body: object): BodyInfo | undefined {
  return bodies.get(body);
}
