import { FormData as UndiciFormData, request, type Dispatcher } from 'undici';
import { upstreamInvalidResponseError, upstreamTimeoutError, upstreamUnreachableError } from '../errors/common-errors.js';
import type { GatewayError } from '../errors/gateway-error.js';
import { StrayStreamTextError } from './stray-stream-text-error.js';
import { getUpstreamDispatcher, type UpstreamTimeouts } from './upstream-dispatcher.js';

/**
 * The multipart body type of upstream requests: undici's `FormData` (undici's `request` refuses Node's global one).
 * Fill it with `append(name, value)` / `append(name, blob, filename)`.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=example-3-dispatch-multipart-form-data
 */
export const UpstreamFormData = UndiciFormData;
/** An instance of {@link UpstreamFormData}. */
export type UpstreamFormData = UndiciFormData;

/** Maps an upstream HTTP error (status >= 400, body read as text) to the error the client receives. */
export type UpstreamErrorMapper = (status: number, bodyText: string, headers: Record<string, string | string[] | undefined>) => GatewayError;

/** One upstream HTTP call. */
export interface UpstreamRequestOptions {
  /** Provider name from config, used in error messages. */
  provider: string;
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** Request body: a JSON string, bytes, or an {@link UpstreamFormData} (sent as multipart/form-data). */
  body?: string | Uint8Array | UndiciFormData;
  /** The client's abort signal; aborting closes the upstream connection at once. */
  signal?: AbortSignal;
  /** Turns a >= 400 answer into a GatewayError; its body has been read (text). */
  mapError: UpstreamErrorMapper;
  timeouts?: UpstreamTimeouts;
  dispatcher?: Dispatcher;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/**
 * Maps a transport failure of an upstream call: a timeout becomes 504, a refused/reset connection 502, text in an
 * event stream that is not an event ({@link StrayStreamTextError}) 502 `upstream_invalid_response`.
 * An abort by the caller's signal is rethrown unchanged (the client is gone; nothing to answer).
 */
export function mapTransportError(provider: string, error: unknown, signal?: AbortSignal): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (StrayStreamTextError.isInstance(error)) return upstreamInvalidResponseError(provider, 'the event stream holds text that is not an event.', error);
  const code = (error as { code?: string } | null)?.code ?? (error as { cause?: { code?: string } } | null)?.cause?.code;
  if (code && TIMEOUT.has(code)) return upstreamTimeoutError(provider, error);
  if (code === 'UND_ERR_ABORTED' || (error as Error | null)?.name === 'AbortError') return error;
  if (code && UNREACHABLE.has(code)) return upstreamUnreachableError(provider, error);
  if (code === 'UND_ERR_INVALID_ARG') return error; // A bug in the caller, not the upstream: a plain 500.
  return upstreamUnreachableError(provider, error);
}

/**
 * Sends one upstream request through undici's `request` API on the shared keep-alive pool.
 * Resolves with the response (status < 400) whose body the caller consumes (JSON, SSE or bytes).
 * Throws: the mapped GatewayError for status >= 400; 504 on connect/headers/body timeouts; 502 when the upstream
 * is unreachable or resets; the abort reason when `signal` aborts.
 * @see https://undici.nodejs.org/#/docs/api/Dispatcher?id=dispatcherrequestoptions-callback
 */
export async function sendUpstreamRequest(options: UpstreamRequestOptions): Promise<Dispatcher.ResponseData> {
  const { timeouts } = options;
  let response: Dispatcher.ResponseData;
  try {
    response = await request(options.url, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: options.headers,
      body: options.body as Dispatcher.RequestOptions['body'],
      signal: options.signal,
      dispatcher: options.dispatcher ?? getUpstreamDispatcher(),
      headersTimeout: timeouts?.headersMs,
      bodyTimeout: timeouts?.bodyIdleMs,
    });
  } catch (error) {
    throw mapTransportError(options.provider, error, options.signal);
  }
  if (response.statusCode >= 400) {
    let text = '';
    try {
      text = await response.body.text();
    } catch (error) {
      throw mapTransportError(options.provider, error, options.signal);
    }
    throw options.mapError(response.statusCode, text, response.headers);
  }
  return response;
}

/**
 * Reads a whole upstream body as JSON. Throws 502 `upstream_invalid_response` on bad JSON, 502/504 when the body
 * breaks off or stalls, the abort reason when aborted.
 */
export async function readUpstreamJson<T>(provider: string, response: Dispatcher.ResponseData, signal?: AbortSignal): Promise<T> {
  let text: string;
  try {
    text = await response.body.text();
  } catch (error) {
    throw mapTransportError(provider, error, signal);
  }
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw upstreamInvalidResponseError(provider, 'the body is not valid JSON.', error);
  }
}
