import { upstreamCredentialsError } from './common-errors.js';
import { GatewayError } from './gateway-error.js';

/**
 * What an adapter's upstream error means to the gateway's client (applied by the gateway to every failed attempt):
 * 401/403 mean the upstream rejected the gateway's own credentials for that provider, so the client gets 502
 * `upstream_auth_failed` naming the provider (with the upstream's message, redacted by the adapter, cut to 200
 * characters; its `upstreamAnswer` is not kept: the client's own key was not at fault); an
 * `insufficient_quota` error keeps its status and body but is not retried like a rate limit. Both fail over to other
 * deployments without retrying the same one. Anything else is returned unchanged.
 */
export function upstreamErrorMeaning(provider: string, error: unknown): unknown {
  if (!GatewayError.isInstance(error)) return error;
  if (error.status === 401 || error.status === 403)
    return upstreamCredentialsError(provider, error.status, error.message);
  if (error.code === 'insufficient_quota' || error.type === 'insufficient_quota') {
    const { status, message, type, param, code, headers, upstreamAnswer } = error;
    return new GatewayError({
      status,
      message,
      type,
      param,
      code,
      headers,
      cause: error.cause,
      retry: 'other-target',
      upstreamAnswer,
    });
  }
  return error;
}
