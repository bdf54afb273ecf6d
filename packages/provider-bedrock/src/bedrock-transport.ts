import { type AdapterCallContext, sendUpstreamRequest, upstreamInvalidResponseError } from '@switchyard/core';
import type { BedrockOptions } from './bedrock-options.js';
import { mapBedrockError } from './map-bedrock-error.js';
import { createAwsRequestSigner } from './sign-aws-request.js';

type UpstreamResponse = Awaited<ReturnType<typeof sendUpstreamRequest>>;

/** How a Bedrock adapter reaches AWS: SigV4-signed requests to the runtime and control endpoints. */
export interface BedrockTransport {
  /** The control-plane endpoint without a trailing slash (`https://bedrock.{region}.amazonaws.com`). */
  control: string;
  /** The secrets redacted from errors (the secret key and session token). */
  secrets: (string | undefined)[];
  /** `{runtime}/model/{model}/{action}`. */
  modelURL: (model: string, action: string) => string;
  /** A signed GET (no `body`) or JSON POST of `body`; resolves on the response headers. Errors by `mapBedrockError`. */
  send: (url: string, context: AdapterCallContext, body?: unknown, accept?: string) => Promise<UpstreamResponse>;
  /**
   * {@link BedrockTransport.send} asking for `application/vnd.amazon.eventstream`; throws 502
   * `upstream_invalid_response` (the body dropped) when the answer is of another content type.
   */
  sendEventStream: (url: string, context: AdapterCallContext, body: unknown) => Promise<UpstreamResponse>;
}

/**
 * Builds the {@link BedrockTransport} of `createBedrock`'s options: every request signed (SigV4, service `bedrock`)
 * with `accept` and `x-request-id`; the call's trace headers added unsigned.
 * @see https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv.html
 */
export function bedrockTransport(options: BedrockOptions): BedrockTransport {
  const runtime = (options.baseURL ?? `https://bedrock-runtime.${options.region}.amazonaws.com`).replace(/\/+$/, '');
  const control = (options.controlBaseURL ?? `https://bedrock.${options.region}.amazonaws.com`).replace(/\/+$/, '');
  const secrets = [options.credentials.secretAccessKey, options.credentials.sessionToken];
  const sign = createAwsRequestSigner({ service: 'bedrock', region: options.region, credentials: options.credentials });

  const send = async (url: string, context: AdapterCallContext, body?: unknown, accept = 'application/json') => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const method = text === undefined ? 'GET' : 'POST';
    const headers = await sign({
      method,
      url,
      headers: {
        accept,
        'x-request-id': context.requestId,
        ...(text === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: text,
    });
    // The call's trace headers (W3C traceparent) go out unsigned: AWS ignores headers outside SignedHeaders.
    Object.assign(headers, context.headers);
    return sendUpstreamRequest({
      provider: context.provider,
      url,
      method,
      headers,
      body: text,
      signal: context.signal,
      upstream: context.upstream,
      timeouts: options.timeouts,
      mapError: (status, errorText, responseHeaders) =>
        mapBedrockError(context.provider, status, errorText, responseHeaders, secrets),
    });
  };
  const modelURL = (model: string, action: string) => `${runtime}/model/${encodeURIComponent(model)}/${action}`;
  const sendEventStream = async (url: string, context: AdapterCallContext, body: unknown) => {
    const response = await send(url, context, body, 'application/vnd.amazon.eventstream');
    const contentType = String(response.headers['content-type'] ?? '');
    if (!contentType.startsWith('application/vnd.amazon.eventstream')) {
      await response.body.dump().catch(() => {});
      throw upstreamInvalidResponseError(
        context.provider,
        `a stream was asked for but it sent '${contentType || 'no content type'}'.`,
      );
    }
    return response;
  };
  return { control, secrets, modelURL, send, sendEventStream };
}
