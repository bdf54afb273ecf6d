import {
  type AdapterCallContext,
  sendUpstreamRequest,
  type UpstreamFormData,
  type UpstreamRequestOptions,
} from '@switchyard/core';
import { type AzureOptions, DEFAULT_AZURE_API_VERSION } from './azure-options.js';
import { mapAzureError } from './map-azure-error.js';

/** What one call adds: body, extra headers, a JSON content type, the method. */
export type AzureInit = {
  body?: string | Uint8Array | readonly Uint8Array[] | UpstreamFormData;
  headers?: Record<string, string>;
  json?: boolean;
  method?: 'GET' | 'POST';
};

/** How an Azure adapter reaches its resource: the `/openai` root, key headers and the request helpers built on them. */
export interface AzureTransport {
  /** `{baseURL}/openai`. */
  root: string;
  /** The secrets redacted from errors (the key and the token). */
  secrets: (string | undefined)[];
  /** The configured headers and the `api-key` (or the Entra `authorization`). */
  baseHeaders: Record<string, string>;
  /** The core request options of `{root}/{path}?api-version=...` for this call (headers, timeouts, `mapAzureError`). */
  call: (path: string, context: AdapterCallContext, init: AzureInit) => UpstreamRequestOptions;
  /** Sends `{root}/{path}?api-version=...`; resolves on the response headers. Errors through `mapAzureError`. */
  send: (path: string, context: AdapterCallContext, init: AzureInit) => ReturnType<typeof sendUpstreamRequest>;
  /** `deployments/{model}/{operation}`. */
  deployment: (model: string, operation: string) => string;
  /** POSTs `body` as JSON to the deployment's `operation`. */
  postJson: (
    model: string,
    operation: string,
    body: unknown,
    context: AdapterCallContext,
  ) => ReturnType<typeof sendUpstreamRequest>;
}

/** Builds the {@link AzureTransport} of `createAzure`'s options (the key or token checked by the caller). */
export function azureTransport(options: AzureOptions): AzureTransport {
  const root = `${options.baseURL.replace(/\/+$/, '').replace(/\/openai$/, '')}/openai`;
  const apiVersion = encodeURIComponent(options.apiVersion ?? DEFAULT_AZURE_API_VERSION);
  const secrets = [options.apiKey, options.azureADToken];
  const auth: Record<string, string> = options.azureADToken
    ? { authorization: `Bearer ${options.azureADToken}` }
    : { 'api-key': options.apiKey as string };
  const baseHeaders = { ...options.headers, ...auth };

  const call = (path: string, context: AdapterCallContext, init: AzureInit): UpstreamRequestOptions => ({
    provider: context.provider,
    url: `${root}/${path.replace(/^\//, '')}?api-version=${apiVersion}`,
    method: init.method,
    headers: {
      ...context.headers,
      ...baseHeaders,
      'x-request-id': context.requestId,
      ...(init.json ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    body: init.body,
    signal: context.signal,
    upstream: context.upstream,
    timeouts: options.timeouts,
    mapError: (status, text, headers) => mapAzureError(context.provider, status, text, headers, secrets),
  });
  const send = (path: string, context: AdapterCallContext, init: AzureInit) =>
    sendUpstreamRequest(call(path, context, init));
  const deployment = (model: string, operation: string) => `deployments/${encodeURIComponent(model)}/${operation}`;
  const postJson = (model: string, operation: string, body: unknown, context: AdapterCallContext) =>
    send(deployment(model, operation), context, { body: JSON.stringify(body), json: true });
  return { root, secrets, baseHeaders, call, send, deployment, postJson };
}
