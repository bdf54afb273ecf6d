import type { IncomingMessage } from 'node:http';

/** The subprotocol prefix browsers use to carry the API key (`openai-insecure-api-key.<key>`). */
export const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';

/** What a Realtime upgrade request carries: the `Authorization` header to check and the subprotocols offered. */
export interface ClientCredentials {
  /** `Bearer <key>` from the `Authorization` header, else from the key subprotocol; undefined when neither is sent. */
  authorization?: string;
  /** The subprotocols the client offered, key protocol excluded (e.g. `realtime`, `openai-beta.realtime-v1`). */
  protocols: string[];
  /** True when the client offered `openai-beta.realtime-v1` (the beta interface). */
  beta: boolean;
}

/**
 * Reads the gateway key of a Realtime upgrade as OpenAI's SDKs send it: `Authorization: Bearer <key>` (server-side
 * SDKs), else the `Sec-WebSocket-Protocol` entry `openai-insecure-api-key.<key>` (browsers, which cannot set headers).
 * The key protocol is never echoed back nor sent upstream.
 * @see https://platform.openai.com/docs/guides/realtime-websocket
 */
export function readClientCredentials(request: IncomingMessage): ClientCredentials {
  const offered = String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const keyProtocol = offered.find((p) => p.startsWith(KEY_PROTOCOL_PREFIX));
  const protocols = offered.filter((p) => !p.startsWith(KEY_PROTOCOL_PREFIX));
  const header = request.headers.authorization;
  const authorization = header ?? (keyProtocol ? `Bearer ${keyProtocol.slice(KEY_PROTOCOL_PREFIX.length)}` : undefined);
  return { authorization, protocols, beta: protocols.includes('openai-beta.realtime-v1') };
}
