/** Request headers Codex sends that OpenAI reads (session and turn attribution, the client's name). */
const FORWARDED = new Set(['session-id', 'session_id', 'originator']);
/** Headers of this prefix are Codex's own (`x-codex-turn-metadata`, `x-codex-window-id`, `x-codex-beta-features`, ...). */
const FORWARDED_PREFIX = 'x-codex-';
/** Most headers and bytes per value forwarded, so a client cannot make the upstream request unbounded. */
const MAX_HEADERS = 32;
const MAX_VALUE_BYTES = 8192;

/**
 * The client headers to send on to an OpenAI Responses upstream on the pass-through: Codex's `session-id`,
 * `originator` and every `x-codex-*` header (lower-case names, values as sent; a repeated header joined with `, `),
 * at most 32 headers of at most 8 KiB each (longer values are left out). Everything else (authentication, hop-by-hop,
 * SDK telemetry) stays at the gateway.
 * @see https://github.com/openai/codex/blob/main/codex-rs/codex-api/src/common.rs
 */
export function forwardedResponsesHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  let count = 0;
  for (const [rawName, rawValue] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    if (!FORWARDED.has(name) && !name.startsWith(FORWARDED_PREFIX)) continue;
    if (rawValue === undefined) continue;
    const value = Array.isArray(rawValue) ? rawValue.join(', ') : rawValue;
    if (Buffer.byteLength(value) > MAX_VALUE_BYTES) continue;
    out[name] = value;
    if (++count >= MAX_HEADERS) break;
  }
  return out;
}
