/**
 * The Gemini Live WebSocket of a Gemini API base URL: `https://generativelanguage.googleapis.com/v1beta` ->
 * `wss://generativelanguage.googleapis.com/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent`
 * (`ws:` for an `http:` base URL; the version is the base URL's last path segment).
 * @see https://ai.google.dev/api/live#websocket-connection
 */
export function geminiLiveURL(baseURL: string): string {
  const url = new URL(baseURL);
  const segments = url.pathname.split('/').filter(Boolean);
  const version = segments.pop() ?? 'v1beta';
  const prefix = segments.length > 0 ? `/${segments.join('/')}` : '';
  const scheme = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${url.host}${prefix}/ws/google.ai.generativelanguage.${version}.GenerativeService.BidiGenerateContent`;
}
