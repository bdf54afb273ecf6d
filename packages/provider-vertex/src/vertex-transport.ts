import { type AdapterCallContext, GatewayError, type UpstreamErrorMapper, sendUpstreamRequest } from '@switchyard/core';
import { mapAnthropicPassThroughError } from '@switchyard/provider-anthropic';
import { mapGeminiError } from '@switchyard/provider-google';
import type { VertexOptions } from './vertex-options.js';

/** Builds the error mapper of one call; `secrets` (the access token) are redacted from messages. */
export type ErrorMapperFor = (secrets: readonly string[]) => UpstreamErrorMapper;

type UpstreamResponse = Awaited<ReturnType<typeof sendUpstreamRequest>>;

/** How a Vertex adapter reaches its endpoint: model URLs, and OAuth2-authorized JSON POSTs retried once on a 401. */
export interface VertexTransport {
  /** `{origin}/v1/projects/{project}/locations/{location}/publishers/{publisher}/models/{model}:{method}`. */
  modelURL: (publisher: 'google' | 'anthropic', model: string, method: string) => string;
  /**
   * POSTs `body` as JSON with a fresh access token; on a 401 forgets the token and sends once more. Throws 502
   * `upstream_auth_failed` when no token can be had, else the error `mapError` makes of the answer.
   */
  send: (
    url: string,
    body: unknown,
    context: AdapterCallContext,
    mapError: ErrorMapperFor,
    extraHeaders?: Record<string, string>,
  ) => Promise<UpstreamResponse>;
}

/**
 * Builds the {@link VertexTransport} of `createVertex`'s options.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest
 */
export function vertexTransport(options: VertexOptions): VertexTransport {
  const origin = (
    options.baseURL ??
    (options.location === 'global'
      ? 'https://aiplatform.googleapis.com'
      : `https://${options.location}-aiplatform.googleapis.com`)
  )
    .replace(/\/+$/, '')
    .replace(/\/v1$/, '');
  const root = `${origin}/v1/projects/${encodeURIComponent(options.project)}/locations/${encodeURIComponent(options.location)}/publishers`;
  // `@` (Claude's version separator, `claude-sonnet-4@20250514`) is a legal path character and stays literal.
  const modelURL = (publisher: 'google' | 'anthropic', model: string, method: string) =>
    `${root}/${publisher}/models/${encodeURIComponent(model).replace(/%40/g, '@')}:${method}`;

  const sendOnce = async (
    url: string,
    body: unknown,
    context: AdapterCallContext,
    mapError: ErrorMapperFor,
    extraHeaders?: Record<string, string>,
  ) => {
    let token: string;
    try {
      token = await options.tokens.getToken();
    } catch (error) {
      throw new GatewayError({
        status: 502,
        type: 'server_error',
        code: 'upstream_auth_failed',
        message: `The provider '${context.provider}' could not get a Google access token: ${(error as Error).message}`,
        cause: error,
      });
    }
    return sendUpstreamRequest({
      provider: context.provider,
      url,
      method: 'POST',
      headers: {
        ...context.headers,
        ...extraHeaders,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-request-id': context.requestId,
      },
      body: JSON.stringify(body),
      signal: context.signal,
      timeouts: options.timeouts,
      upstream: context.upstream,
      mapError: mapError([token]),
    });
  };
  /** Sends once; on a 401 (an expired or revoked token) forgets the token and sends once more. */
  const send = async (
    url: string,
    body: unknown,
    context: AdapterCallContext,
    mapError: ErrorMapperFor,
    extraHeaders?: Record<string, string>,
  ) => {
    try {
      return await sendOnce(url, body, context, mapError, extraHeaders);
    } catch (error) {
      if (!GatewayError.isInstance(error) || error.status !== 401) throw error;
      options.tokens.invalidate();
      return sendOnce(url, body, context, mapError, extraHeaders);
    }
  };
  return { modelURL, send };
}

/** Google's errors (`{"error":{code,message,status}}`) through provider-google's `mapGeminiError`. */
export const googleErrors =
  (context: AdapterCallContext): ErrorMapperFor =>
  (secrets) =>
  (status, text, headers) =>
    mapGeminiError(context.provider, status, text, headers, secrets);

/** Claude's errors on the pass-through, kept as they came (see `mapAnthropicPassThroughError`). */
export const passThroughErrors =
  (context: AdapterCallContext): ErrorMapperFor =>
  (secrets) =>
  (status, text, headers) =>
    mapAnthropicPassThroughError(context.provider, status, text, headers, secrets);
