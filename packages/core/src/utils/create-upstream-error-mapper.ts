import type { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';
import type { ErrorCode } from '../errors/gateway-error-codes.js';
import { redactSecrets } from '../errors/redact-secrets.js';
import { parseJsonOrUndefined } from './parse-json-or-undefined.js';

/** Upstream response headers, lower-case names, as undici gives them. */
export type UpstreamResponseHeaders = Record<string, string | string[] | undefined>;

/** What a mapper's hooks know of the answer besides its body. */
export interface UpstreamErrorContext {
  /** The provider's configured name, e.g. `openai`, `az`. */
  provider: string;
  /** The upstream's HTTP status (for a stream's error event, the status its error type implies). */
  status: number;
  /** The upstream response headers (lower-case names). */
  headers: UpstreamResponseHeaders;
  /** The body text with every secret (and key-like piece of one) redacted. */
  text: string;
  /** Whether the body was JSON of the schema's shape (false: not JSON, or JSON the schema refused). */
  readable: boolean;
}

/** A hook reading one field of the error from the body the schema gave (or from the headers, via `context`). */
export type UpstreamErrorHook<T, R> = (body: T, context: UpstreamErrorContext) => R | undefined;

/**
 * How one provider's error answers read: the zod schema of the error body (only the fields read, unknown fields kept,
 * every field optional so that one field of the wrong type does not hide the others) and one hook per field of the
 * client's error. Hooks are called with the body the schema gave; for a body that is not JSON or that the schema
 * refuses, with what the schema makes of `{}` (every field absent), so header-driven hooks still run.
 */
export interface UpstreamErrorMapperOptions<T> {
  /** The error body's schema; parsed with `safeParse`, never trusted by cast. */
  schema: z.ZodType<T>;
  /** The upstream's message; undefined or '' gives `The upstream provider '<provider>' answered HTTP <status>.`. */
  toMessage: UpstreamErrorHook<T, string>;
  /**
   * The error `code`: one of the gateway's own (e.g. `rate_limit_exceeded`) or the upstream's, passed on through
   * `upstreamErrorCode(...)`; default null.
   */
  toCode?: UpstreamErrorHook<T, ErrorCode | null>;
  /** The OpenAI error `type`; default {@link UpstreamErrorMapperOptions.typeByStatus}, then `server_error` for 5xx, else `invalid_request_error`. */
  toType?: UpstreamErrorHook<T, string>;
  /** The request field at fault (OpenAI's name); default null. */
  toParam?: UpstreamErrorHook<T, string | null>;
  /** The client's status read from the body or headers (e.g. an exception name); wins over `statusMap`. */
  toStatus?: UpstreamErrorHook<T, number>;
  /** Upstream status -> client status, e.g. `{ 529: 503 }`. Any status outside 400..599, and 407, becomes 502 after it. */
  statusMap?: Readonly<Record<number, number>>;
  /** The error `type` by client status when `toType` has none, e.g. `{ 429: 'rate_limit_error' }`. */
  typeByStatus?: Readonly<Record<number, string>>;
  /** Response headers passed on to the client and the gateway's retries as they came; default `retry-after`, `retry-after-ms`. */
  keptHeaders?: readonly string[];
  /** Further headers derived from the body or headers (e.g. a retry delay in the body -> `retry-after-ms`). */
  toHeaders?: UpstreamErrorHook<T, Record<string, string>>;
}

/**
 * A provider's error mapper: `(provider, status, bodyText, headers, secrets)` -> the client's GatewayError. `status`
 * is the upstream HTTP status, `bodyText` its body, `headers` its headers (lower-case), `secrets` the upstream
 * credentials to redact. Never throws.
 */
export type ProviderErrorMapper = (
  provider: string,
  status: number,
  bodyText: string,
  headers: UpstreamResponseHeaders,
  secrets: readonly (string | undefined)[],
) => GatewayError;

/** Characters of an unreadable body (HTML from a proxy, plain text) quoted in the generic message. */
const QUOTED_CHARACTERS = 200;

const DEFAULT_KEPT_HEADERS = ['retry-after', 'retry-after-ms'];

/**
 * Builds a provider's error mapper from the schema of its error body and one hook per field. Every mapper built here:
 * - redacts `secrets` from the whole body text before anything is read from it (and from the final message), so no
 *   field, and no cut of one, carries the key on;
 * - reads the body through `schema` (`safeParse`, never a cast); a body that is not JSON or not of the schema's shape
 *   still gives the upstream's status (after `statusMap`/`toStatus`) and the message `The upstream provider
 *   '<provider>' answered HTTP <status>`, plus the first 200 characters when the body was not JSON; never a 500;
 * - clamps the status to 400..599 (anything else, 200 included, becomes 502), and turns 407 (a proxy between the
 *   gateway and the upstream wants credentials: nothing the client can act on, and fetch clients treat a 407 as a
 *   network failure) into 502;
 * - keeps `retry-after`/`retry-after-ms` (or `keptHeaders`) and adds `toHeaders`;
 * - never throws: a hook that throws is treated as one that found nothing.
 * The model is the AI SDK's `createJsonErrorResponseHandler` (schema + `errorToMessage`), extended with the status,
 * type, code and headers an OpenAI-shaped error needs.
 * @see https://github.com/vercel/ai/blob/main/packages/provider-utils/src/response-handler.ts
 * @see https://platform.openai.com/docs/guides/error-codes/api-errors
 */
export function createUpstreamErrorMapper<T>(options: UpstreamErrorMapperOptions<T>): ProviderErrorMapper {
  const kept = options.keptHeaders ?? DEFAULT_KEPT_HEADERS;
  return (provider, status, bodyText, headers, secrets) => {
    const text = redactSecrets(bodyText, secrets);
    const json = parseJsonOrUndefined(text);
    const read = json === undefined ? undefined : options.schema.safeParse(json);
    const readable = read?.success === true;
    const empty = readable ? undefined : options.schema.safeParse({});
    const body = read?.success ? read.data : empty?.success ? empty.data : undefined;
    const context: UpstreamErrorContext = { provider, status, headers, text, readable };
    const hook = <R>(fn: UpstreamErrorHook<T, R> | undefined): R | undefined => {
      if (!fn || body === undefined) return undefined;
      try {
        return fn(body, context);
      } catch {
        return undefined;
      }
    };
    const wanted = hook(options.toStatus) ?? options.statusMap?.[status] ?? status;
    const finalStatus = Number.isInteger(wanted) && wanted >= 400 && wanted <= 599 && wanted !== 407 ? wanted : 502;
    const said = hook(options.toMessage);
    const quoted = json === undefined && text !== '' ? `: ${text.slice(0, QUOTED_CHARACTERS)}` : '.';
    const message =
      typeof said === 'string' && said !== ''
        ? redactSecrets(said, secrets)
        : `The upstream provider '${provider}' answered HTTP ${status}${quoted}`;
    const out: Record<string, string> = {};
    for (const name of kept) {
      const value = headers[name];
      if (typeof value === 'string') out[name] = value;
    }
    Object.assign(out, hook(options.toHeaders));
    return new GatewayError({
      status: finalStatus,
      message,
      type:
        hook(options.toType) ??
        options.typeByStatus?.[finalStatus] ??
        (finalStatus >= 500 ? 'server_error' : 'invalid_request_error'),
      code: hook(options.toCode) ?? null,
      param: hook(options.toParam) ?? null,
      headers: out,
    });
  };
}
