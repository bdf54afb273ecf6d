import {
  type AdapterCallContext,
  fetchUpstreamBody,
  sendUpstreamRequest,
  toRequestJsonParts,
  type UpstreamFormData,
  type UpstreamRequestOptions,
  mapOpenAIError,
} from '@switchyard/core';
import type { OpenAIOptions } from './openai-options.js';

/** What differs between the calls of one adapter: body, extra headers, method. */
export type UpstreamInit = {
  body?: string | Uint8Array | readonly Uint8Array[] | UpstreamFormData;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
};

/** How an OpenAI adapter reaches its upstream: the base URL, headers and key, and the request helpers built on them. */
export interface OpenAITransport {
  /** The base URL without a trailing slash, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  /** The headers of every call: `authorization`, `openai-organization`, `openai-project` and the configured ones. */
  baseHeaders: Record<string, string>;
  /** The secrets redacted from error messages (the API key). */
  secrets: (string | undefined)[];
  /** The core request options of `<baseURL><path>` for this call (headers, timeouts, the OpenAI error mapper). */
  upstreamCall: (path: string, context: AdapterCallContext, init: UpstreamInit) => UpstreamRequestOptions;
  /** Sends the call; resolves on the response headers. */
  send: (path: string, context: AdapterCallContext, init: UpstreamInit) => ReturnType<typeof sendUpstreamRequest>;
  /** POSTs `body` as JSON. */
  postJson: (path: string, body: unknown, context: AdapterCallContext) => ReturnType<typeof sendUpstreamRequest>;
  /** POSTs JSON and reads the whole answer (no response stream): for answers that are never streamed. */
  postJsonForBody: (path: string, body: unknown, context: AdapterCallContext) => Promise<Buffer>;
  /** A JSON request body with its content type. */
  jsonBody: (body: unknown) => UpstreamInit;
}

/**
 * Builds the {@link OpenAITransport} of {@link createOpenAI}'s `options`: `Authorization: Bearer <apiKey>`, the
 * gateway's `x-request-id`, errors through `mapOpenAIError` with the key redacted.
 */
export function openAITransport(options: OpenAIOptions): OpenAITransport {
  const baseURL = (options.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const secrets = [options.apiKey];
  const baseHeaders: Record<string, string> = { ...options.headers };
  if (options.apiKey) baseHeaders.authorization = `Bearer ${options.apiKey}`;
  if (options.organization) baseHeaders['openai-organization'] = options.organization;
  if (options.project) baseHeaders['openai-project'] = options.project;

  const upstreamCall = (path: string, context: AdapterCallContext, init: UpstreamInit): UpstreamRequestOptions => ({
    provider: context.provider,
    url: `${baseURL}${path}`,
    method: init.method,
    headers: { ...context.headers, ...baseHeaders, 'x-request-id': context.requestId, ...init.headers },
    body: init.body,
    signal: context.signal,
    upstream: context.upstream,
    timeouts: options.timeouts,
    mapError: (status, text, headers) => mapOpenAIError(context.provider, status, text, headers, secrets),
  });
  const send = (path: string, context: AdapterCallContext, init: UpstreamInit) =>
    sendUpstreamRequest(upstreamCall(path, context, init));
  // A large prompt's messages go out as the client's own text when the gateway remembered it, its bytes not copied
  // again (toRequestJsonParts).
  const jsonBody = (body: unknown): UpstreamInit => {
    const json = toRequestJsonParts(body);
    if (typeof json === 'string') return { body: json, headers: { 'content-type': 'application/json' } };
    let length = 0;
    for (const part of json) length += part.length;
    return { body: json, headers: { 'content-type': 'application/json', 'content-length': String(length) } };
  };
  const postJson = (path: string, body: unknown, context: AdapterCallContext) => send(path, context, jsonBody(body));
  /** POSTs JSON and reads the whole answer (no response stream): for answers that are never streamed. */
  const postJsonForBody = async (path: string, body: unknown, context: AdapterCallContext) =>
    (await fetchUpstreamBody(upstreamCall(path, context, jsonBody(body)))).bytes;
  return { baseURL, baseHeaders, secrets, upstreamCall, send, postJson, postJsonForBody, jsonBody };
}
