import type { AdapterCallContext, RealtimeUpstream } from '@switchyard/core';

/** The WebSocket URL of an HTTP(S) base URL: `https:` -> `wss:`, `http:` -> `ws:`, path and query kept. */
export function webSocketURL(httpURL: string): string {
  return httpURL.replace(/^http(s?):/i, (_m, s: string) => `ws${s.toLowerCase()}:`);
}

/**
 * The upstream of a Realtime session on OpenAI or an OpenAI-compatible server: `GET <baseURL>/realtime?model=<model>`
 * upgraded to a WebSocket (`wss:` for an `https:` base URL), with the adapter's own headers (`Authorization: Bearer
 * <upstream key>`, organization, project, extra headers: the client's key never goes upstream), `OpenAI-Beta:
 * realtime=v1` when `beta` is set (upstreams still on the beta interface) or when the client sent it, and the
 * gateway's `x-request-id`. Events pass through unchanged (no translator).
 * @see https://platform.openai.com/docs/guides/realtime-websocket
 */
export function openAIRealtimeUpstream(
  baseURL: string,
  model: string,
  baseHeaders: Record<string, string>,
  context: AdapterCallContext,
  beta: boolean,
  secrets: readonly (string | undefined)[],
): RealtimeUpstream {
  const headers: Record<string, string> = { ...context.headers, ...baseHeaders, 'x-request-id': context.requestId };
  const clientBeta = context.clientHeaders?.['openai-beta'];
  if (beta) headers['openai-beta'] = 'realtime=v1';
  else if (clientBeta) headers['openai-beta'] = clientBeta;
  return { url: `${webSocketURL(baseURL)}/realtime?model=${encodeURIComponent(model)}`, headers, secrets };
}
