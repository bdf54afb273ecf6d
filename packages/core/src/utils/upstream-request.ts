import { FormData as UndiciFormData, request, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';
import {
  upstreamInvalidResponseError,
  upstreamTimeoutError,
  upstreamUnreachableError,
} from '../errors/common-errors.js';
import {
  CappedBody,
  type UpstreamBodyLimits,
  type UpstreamCallSettings,
  registerUpstreamBody,
  resolveBodyLimits,
  upstreamBodyInfo,
} from './upstream-body-limits.js';
import { StrayStreamTextError } from './stray-stream-text-error.js';
import { parseEmbeddingsLazily } from './parse-embeddings-lazily.js';
import { rememberJsonText } from './raw-json-text.js';
import { getUpstreamDispatcher, type UpstreamTimeouts } from './upstream-dispatcher.js';
import type { MultipartFormBody } from './multipart-form-body.js';
import { pacedUpstreamBody } from './paced-upstream-body.js';

/**
 * The multipart body type of upstream requests: undici's `FormData` (undici's `request` refuses Node's global one).
 * Fill it with `append(name, value)` / `append(name, blob, filename)`.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=example-3-dispatch-multipart-form-data
 */
export const UpstreamFormData = UndiciFormData;
/** An instance of {@link UpstreamFormData}. */
export type UpstreamFormData = UndiciFormData;

/** Maps an upstream HTTP error (status >= 400, body read as text) to the error the client receives. */
export type UpstreamErrorMapper = (
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
) => GatewayError;

/** One upstream HTTP call. */
export interface UpstreamRequestOptions {
  /** Provider name from config, used in error messages. */
  provider: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /**
   * Request body: a JSON string, bytes, buffers sent one after the other (give their total `content-length` in
   * `headers`, e.g. a {@link MultipartFormBody}), or an {@link UpstreamFormData} (sent as multipart/form-data).
   */
  body?: string | Uint8Array | readonly Uint8Array[] | UndiciFormData;
  /** The client's abort signal; aborting closes the upstream connection at once. */
  signal?: AbortSignal;
  /** Turns a >= 400 answer into a GatewayError; its body has been read (text). */
  mapError: UpstreamErrorMapper;
  timeouts?: UpstreamTimeouts;
  /** A dispatcher of the adapter's own; default `upstream.dispatcher`, else the process-wide pool. */
  dispatcher?: Dispatcher;
  /**
   * What the gateway gives the call (`AdapterCallContext.upstream`): its pool, the provider's body limits, the
   * response-headers hook. Required so that an adapter cannot forget it: pass `context.upstream` (undefined only
   * outside the gateway, e.g. in a unit test of a translation).
   */
  upstream: UpstreamCallSettings | undefined;
  /** Body limits of the adapter's own (over `upstream.limits` and the defaults), bytes. */
  limits?: UpstreamBodyLimits;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);
const TIMEOUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/**
 * Maps a transport failure of an upstream call: a timeout becomes 504, a refused/reset connection 502, text in an
 * event stream that is not an event ({@link StrayStreamTextError}) 502 `upstream_invalid_response`.
 * An abort by the caller's signal is rethrown unchanged (the client is gone; nothing to answer).
 */
export function mapTransportError(provider: string, error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (StrayStreamTextError.isInstance(error))
    return upstreamInvalidResponseError(provider, 'the event stream holds text that is not an event.', error);
  const code =
    (error as { code?: string } | null)?.code ?? (error as { cause?: { code?: string } } | null)?.cause?.code;
  if (code && TIMEOUT.has(code)) return upstreamTimeoutError(provider, error);
  if (code === 'UND_ERR_ABORTED' || (error as Error | null)?.name === 'AbortError') return error;
  if (code && UNREACHABLE.has(code)) return upstreamUnreachableError(provider, error);
  if (code === 'UND_ERR_INVALID_ARG') return error; // A bug in the caller, not the upstream: a plain 500.
  return upstreamUnreachableError(provider, error);
}

/**
 * Reads an upstream body up to `limit` bytes (checked against `content-length` first, then while reading). Throws 502
 * `upstream_response_too_large` naming the provider and the limit (the rest is discarded and the connection closed),
 * 502/504 when the body breaks off or stalls, the abort reason when `signal` aborts.
 */
async function readCapped(
  provider: string,
  body: Dispatcher.ResponseData['body'],
  headers: Dispatcher.ResponseData['headers'],
  limit: keyof UpstreamBodyLimits,
  bytes: number,
  signal?: AbortSignal,
): Promise<Buffer> {
  const capped = new CappedBody(provider, limit, bytes);
  try {
    capped.declare(headers['content-length']);
    for await (const part of body) capped.add(part as Buffer);
  } catch (error) {
    if (!GatewayError.isInstance(error)) throw mapTransportError(provider, error, signal);
    body.destroy();
    throw error;
  }
  return capped.bytes();
}

/**
 * Sends one upstream request through undici's `request` API on the gateway's keep-alive pool (`upstream.dispatcher`,
 * else the process-wide one). Resolves with the response (status < 400) whose body the caller consumes with
 * {@link readUpstreamJson}, {@link readUpstreamText} or `parseSSEStream` (which apply the body limits), and calls
 * `upstream.onResponseHeaders`.
 * Throws: for status >= 400 the error `mapError` gives for at most `maxErrorBytes` of the body; 502
 * `upstream_response_too_large` for a longer error body; 504 on connect/headers/body timeouts; 502 when the upstream
 * is unreachable or resets; the abort reason when `signal` aborts.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=dispatcherrequestoptions-callback
 */
export async function sendUpstreamRequest(options: UpstreamRequestOptions): Promise<Dispatcher.ResponseData> {
  const { timeouts, provider } = options;
  const limits = resolveBodyLimits({ ...options.upstream?.limits, ...options.limits });
  let response: Dispatcher.ResponseData;
  try {
    response = await request(options.url, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: options.headers,
      body: pacedUpstreamBody(options.body) as Dispatcher.RequestOptions['body'],
      signal: options.signal,
      dispatcher: options.dispatcher ?? options.upstream?.dispatcher ?? getUpstreamDispatcher(),
      headersTimeout: timeouts?.headersMs,
      bodyTimeout: timeouts?.bodyIdleMs,
    });
  } catch (error) {
    throw mapTransportError(provider, error, options.signal);
  }
  if (response.statusCode >= 400) {
    const text = (
      await readCapped(provider, response.body, response.headers, 'maxErrorBytes', limits.maxErrorBytes, options.signal)
    ).toString('utf8');
    throw options.mapError(response.statusCode, text, response.headers);
  }
  registerUpstreamBody(response, provider, limits);
  registerUpstreamBody(response.body, provider, limits);
  options.upstream?.onResponseHeaders?.();
  return response;
}

/**
 * Reads a whole upstream body (status < 400) as bytes, at most `maxResponseBytes` of the request's limits. Throws 502
 * `upstream_response_too_large` naming the provider and the limit, 502/504 when the body breaks off or stalls, the
 * abort reason when aborted.
 */
export function readUpstreamBody(
  provider: string,
  response: Dispatcher.ResponseData,
  signal?: AbortSignal,
): Promise<Buffer> {
  const limit = upstreamBodyInfo(response)?.limits.maxResponseBytes ?? resolveBodyLimits().maxResponseBytes;
  return readCapped(provider, response.body, response.headers, 'maxResponseBytes', limit, signal);
}

/** Reads a whole upstream body as UTF-8 text; limits and errors as {@link readUpstreamBody}. */
export async function readUpstreamText(
  provider: string,
  response: Dispatcher.ResponseData,
  signal?: AbortSignal,
): Promise<string> {
  return (await readUpstreamBody(provider, response, signal)).toString('utf8');
}

/**
 * Reads a whole upstream body as JSON through `schema` (required: a zod schema of the fields the adapter reads, unknown
 * fields kept, e.g. `z.looseObject({data: z.array(...)})`) and returns the parsed value; nothing an upstream sent is
 * taken by a cast. Limits and errors as {@link readUpstreamBody}; throws 502 `upstream_invalid_response` naming the
 * provider on bad JSON, or when `schema` rejects the value (the first offending field named).
 */
export async function readUpstreamJson<T>(
  provider: string,
  response: Dispatcher.ResponseData,
  signal: AbortSignal | undefined,
  schema: z.ZodType<T>,
): Promise<T> {
  return upstreamJsonOf(provider, await readUpstreamBody(provider, response, signal), schema);
}

/**
 * {@link readUpstreamJson} for a body already read whole (`bytes`, e.g. by `fetchUpstreamBody`): parsed and checked
 * with `schema`. Throws 502 `upstream_invalid_response` naming the provider on bad JSON or a wrong shape.
 */
export function upstreamJsonOf<T>(provider: string, bytes: Buffer, schema: z.ZodType<T>): T {
  return checkUpstreamShape(provider, schema, parseUpstreamJsonText(provider, bytes.toString('utf8')));
}

/**
 * Reads a whole upstream answer that the adapter returns as it is (an OpenAI-compatible completion or embeddings
 * answer): parses it, takes it when `isPlain` (a hand-written check, see `isPlainChatCompletion`) says it certainly
 * matches `schema`, else checks it with `schema` like {@link checkUpstreamShape}. An answer taken as it came keeps the
 * upstream's text and bytes (`rememberJsonText`), so the gateway forwards those bytes as long as nothing changes it. Limits and
 * errors as {@link readUpstreamJson}.
 */
export async function readUpstreamAnswer<T>(
  provider: string,
  response: Dispatcher.ResponseData,
  signal: AbortSignal | undefined,
  schema: z.ZodType<T>,
  isPlain: (value: unknown) => boolean,
): Promise<T> {
  return upstreamAnswerOf(provider, await readUpstreamBody(provider, response, signal), schema, isPlain);
}

/**
 * {@link readUpstreamAnswer} for an answer already read whole (`bytes`, e.g. by `fetchUpstreamBody`): parsed, taken
 * as it came when `isPlain` vouches for it (its text and bytes remembered), else checked with `schema`. Throws 502
 * `upstream_invalid_response` naming the provider on bad JSON or a wrong shape.
 */
export function upstreamAnswerOf<T>(
  provider: string,
  bytes: Buffer,
  schema: z.ZodType<T>,
  isPlain: (value: unknown) => boolean,
): T {
  return parseUpstreamAnswer(provider, bytes, bytes.toString('utf8'), schema, isPlain);
}

/**
 * {@link upstreamAnswerOf} for an answer a preset repairs before it is checked (`fix`, e.g. Mistral's tool calls without
 * `type`): parsed, given to `fix`, and the result checked with `schema`. A `fix` that throws on a body of the wrong
 * shape (a `TypeError` reading `choices` of a body without it) is reported as that body's shape error. Throws 502
 * `upstream_invalid_response` naming the provider on bad JSON or a wrong shape, before or after the fix.
 */
export function upstreamFixedAnswerOf<T>(
  provider: string,
  bytes: Buffer,
  schema: z.ZodType<T>,
  fix: (value: T) => T,
): T {
  return fixThenCheck(
    provider,
    schema,
    parseUpstreamJsonText(provider, bytes.toString('utf8')),
    fix,
    checkUpstreamShape,
  );
}

/**
 * Gives an upstream value to a preset's `fix` and checks the result with `schema` through `check`
 * ({@link checkUpstreamShape}, `checkUpstreamEvent`...). When `fix` throws (it read a field the value lacks), the value
 * itself is checked, so the 502 names the offending field; one `schema` accepts anyway, the fix's error is reported
 * as 502 `upstream_invalid_response`. Never throws a `TypeError` of the fix.
 */
export function fixThenCheck<T>(
  provider: string,
  schema: z.ZodType<T>,
  value: unknown,
  fix: (value: T) => T,
  check: (provider: string, schema: z.ZodType<T>, value: unknown) => T,
): T {
  let fixed: T;
  try {
    // The fix reads the value as the type it repairs; whatever it lacks makes it throw, handled below.
    fixed = fix(value as T);
  } catch (error) {
    check(provider, schema, value);
    throw upstreamInvalidResponseError(provider, 'the answer could not be read.', error);
  }
  return check(provider, schema, fixed);
}

/**
 * {@link readUpstreamAnswer} for an embeddings answer: float vectors are checked for syntax and left unparsed until
 * read (`parseEmbeddingsLazily`), since the gateway forwards an unchanged answer as the upstream's bytes; any other
 * answer (base64 vectors, unusual numbers, a shape `isPlain` refuses) is parsed whole and checked as
 * {@link readUpstreamAnswer} does. Limits and errors as {@link readUpstreamJson}.
 */
export async function readUpstreamEmbeddings<T>(
  provider: string,
  response: Dispatcher.ResponseData,
  signal: AbortSignal | undefined,
  schema: z.ZodType<T>,
  isPlain: (value: unknown) => boolean,
): Promise<T> {
  return upstreamEmbeddingsOf(provider, await readUpstreamBody(provider, response, signal), schema, isPlain);
}

/** {@link readUpstreamEmbeddings} for an answer already read whole (`bytes`, e.g. by `fetchUpstreamBody`); same checks and errors. */
export function upstreamEmbeddingsOf<T>(
  provider: string,
  bytes: Buffer,
  schema: z.ZodType<T>,
  isPlain: (value: unknown) => boolean,
): T {
  const text = bytes.toString('utf8');
  const lazy = parseEmbeddingsLazily(text, isPlain);
  if (lazy === undefined) return parseUpstreamAnswer(provider, bytes, text, schema, isPlain);
  rememberJsonText(lazy as object, text, bytes);
  return lazy as T;
}

/** `JSON.parse(text)` of an upstream body; throws 502 `upstream_invalid_response` naming the provider when it is not JSON. */
function parseUpstreamJsonText(provider: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw upstreamInvalidResponseError(provider, 'the body is not valid JSON.', error);
  }
}

/** Parses and checks an answer read by {@link readUpstreamAnswer} (`text` is `bytes` decoded). */
function parseUpstreamAnswer<T>(
  provider: string,
  bytes: Buffer,
  text: string,
  schema: z.ZodType<T>,
  isPlain: (value: unknown) => boolean,
): T {
  const value = parseUpstreamJsonText(provider, text);
  if (!isPlain(value)) return checkUpstreamShape(provider, schema, value);
  rememberJsonText(value as object, text, bytes);
  return value as T;
}

/**
 * Checks a value an upstream sent against a zod schema (unknown fields kept) and returns the parsed value. Throws 502
 * `upstream_invalid_response` naming the provider and the first offending field when it does not match.
 */
export function checkUpstreamShape<T>(provider: string, schema: z.ZodType<T>, value: unknown): T {
  const checked = schema.safeParse(value);
  if (!checked.success)
    throw upstreamInvalidResponseError(
      provider,
      `the body does not have the documented shape (${describeIssue(checked.error)}).`,
    );
  return checked.data;
}

/** `path: message` of a zod error's first issue, e.g. `choices[0].message: expected object`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  return `${path || 'body'}: ${issue.message}`;
}
