import { randomBytes } from 'node:crypto';

const SIGNATURE = '__sig_';

/**
 * Makes an OpenAI tool call id for a Gemini function call (Gemini gives none). Gemini 3 requires the part's
 * `thoughtSignature` back on the next turn; the gateway is stateless, so the signature rides inside the id, which
 * clients echo verbatim: `call_<random>` or `call_<random>__sig_<signature>`.
 */
export function encodeToolCallId(signature: string | undefined): string {
  const id = `call_${randomBytes(9).toString('base64url')}`;
  return signature ? `${id}${SIGNATURE}${signature}` : id;
}

/** The `thoughtSignature` carried in an id made by {@link encodeToolCallId}, if any. */
export function decodeToolCallSignature(id: string): string | undefined {
  const at = id.indexOf(SIGNATURE);
  return at < 0 ? undefined : id.slice(at + SIGNATURE.length);
}
