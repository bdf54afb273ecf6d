import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayError, redactSecrets } from '@switchyard/core';

/**
 * Answers an upgrade request with a plain HTTP error instead of switching protocols, in OpenAI's error shape
 * (`{"error":{message,type,param,code}}`), with the error's headers (`retry-after`, `x-ratelimit-*`) and
 * `connection: close`, then ends the socket. Anything but a `GatewayError` becomes 500 `server_error`. Secrets are
 * redacted from the message.
 */
export function refuseUpgrade(
  socket: Duplex,
  error: unknown,
  requestId: string,
  secrets: readonly string[],
): { status: number; code: string | null } {
  const gatewayError = GatewayError.isInstance(error)
    ? error
    : new GatewayError({
        status: 500,
        type: 'server_error',
        code: 'internal_error',
        message: 'The gateway failed to open the session.',
      });
  const body = JSON.stringify({
    error: {
      message: redactSecrets(gatewayError.message, secrets),
      type: gatewayError.type,
      param: gatewayError.param,
      code: gatewayError.code,
    },
  });
  const headers: Record<string, string> = {
    ...gatewayError.headers,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    connection: 'close',
  };
  if (socket.writable) {
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    socket.end(
      `HTTP/1.1 ${gatewayError.status} ${STATUS_CODES[gatewayError.status] ?? 'Error'}\r\n${lines.join('\r\n')}\r\n\r\n${body}`,
    );
  } else socket.destroy();
  return { status: gatewayError.status, code: gatewayError.code };
}
