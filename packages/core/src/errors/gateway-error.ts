import type { ErrorBody } from './error-body.js';
import type { ErrorCode } from './gateway-error-codes.js';

const marker = Symbol.for('switchyard.gateway-error');

/** Options of a {@link GatewayError}. */
export interface GatewayErrorOptions {
  /** HTTP status the client receives, e.g. 400, 404, 429, 502. */
  status: number;
  /** Human-readable message; never contains secrets. */
  message: string;
  /** OpenAI error `type`, e.g. `invalid_request_error`, `server_error`. */
  type: string;
  /**
   * OpenAI error `code`, or null: one of the gateway's own ({@link GatewayErrorCode}, e.g. `model_not_found`; a typo
   * fails typecheck) or one an upstream sent, passed on through {@link upstreamErrorCode}.
   */
  code?: ErrorCode | null;
  /** The request field at fault, e.g. `messages[0].content`, or null. */
  param?: string | null;
  /** Extra response headers, e.g. `retry-after` copied from the upstream. */
  headers?: Record<string, string>;
  /** The underlying error (logged, never sent). */
  cause?: unknown;
  /**
   * Whether the gateway may try again: `same-target` (retry, then fail over), `other-target` (fail over to the next
   * deployment only: retrying the same one cannot help, e.g. the upstream rejected the gateway's credentials), `never`.
   * Default: `same-target` for 408, 409, 429 and 5xx, else `never`.
   */
  retry?: GatewayErrorRetry;
  /**
   * The upstream's own error answer, for front doors that pass a protocol through and must return its errors unchanged
   * (Anthropic's gateway protocol: status, body and `request-id` byte for byte). Set by pass-through adapters only.
   */
  upstreamAnswer?: UpstreamAnswer;
}

/** An upstream's error answer as it came: status, the headers a client may act on (lower-case names), body text. */
export interface UpstreamAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** How a failed attempt may be retried: see {@link GatewayErrorOptions.retry}. */
export type GatewayErrorRetry = 'same-target' | 'other-target' | 'never';

/**
 * The one error type of Switchyard: an HTTP status plus the four fields of OpenAI's error body.
 * Thrown by core and adapters before a response starts; `toJSON()` gives `{"error":{message,type,param,code}}`.
 * Checked with {@link GatewayError.isInstance}, which survives two copies of this package in one process.
 * @see https://platform.openai.com/docs/guides/error-codes
 */
export class GatewayError extends Error {
  readonly [marker] = true;
  readonly status: number;
  readonly type: string;
  readonly code: ErrorCode | null;
  readonly param: string | null;
  readonly headers: Record<string, string>;
  readonly retry: GatewayErrorRetry;
  readonly upstreamAnswer?: UpstreamAnswer;

  constructor(options: GatewayErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.status = options.status;
    this.type = options.type;
    this.code = options.code ?? null;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
    if (options.upstreamAnswer) this.upstreamAnswer = options.upstreamAnswer;
    const status = this.status;
    this.retry =
      options.retry ?? (status === 408 || status === 409 || status === 429 || status >= 500 ? 'same-target' : 'never');
  }

  /** True for errors worth another attempt on the same or another upstream (by default 408, 409, 429 and 5xx). */
  get isRetryable(): boolean {
    return this.retry !== 'never';
  }

  /** The OpenAI-shaped body `{"error":{message,type,param,code}}`. */
  toJSON(): ErrorBody {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }

  /** True when `value` is a GatewayError from any copy of `@switchyard/core`. */
  static isInstance(value: unknown): value is GatewayError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }
}
