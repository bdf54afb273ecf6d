/** Shortest secret that is redacted, characters. */
const MIN_SECRET_LENGTH = 6;

/**
 * The shortest piece of a secret that counts as an echo of it, characters: half the secret, at least 8 and at most 16
 * (a whole secret shorter than that). Long enough that ordinary words inside a test key do not match prose.
 */
export function secretFragmentLength(secret: string): number {
  return Math.min(secret.length, Math.max(8, Math.min(16, Math.ceil(secret.length / 2))));
}

/**
 * Replaces every occurrence of each secret (at least 6 characters) in `text` with `[REDACTED]`, and every piece of
 * one at least {@link secretFragmentLength} characters long (an echo minus its last characters, a prefix cut off by a
 * truncation, the middle of a key quoted in a message) that is key material: it mixes at least two of lower case, upper
 * case and digits (a capitalized word counts as lower case). A piece that is a plain word (`upstream`, `auth_failed`,
 * `-key-`), which a key named `az-upstream-key` shares with the gateway's own codes and messages, is left alone. Used on everything an upstream says in an error (JSON error
 * fields, mid-stream error events, plain-text bodies) before it reaches a client or a log. Cut text only after
 * redacting it, never before. Cost: linear in `text` per secret.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    if (out.includes(secret)) out = out.split(secret).join('[REDACTED]');
    out = redactFragments(out, secret);
  }
  return out;
}

function redactFragments(text: string, secret: string): string {
  const m = secretFragmentLength(secret);
  if (text.length < m) return text;
  const pieces = new Set<string>();
  for (let i = 0; i + m <= secret.length; i++) pieces.add(secret.slice(i, i + m));
  let out = '';
  let copied = 0;
  for (let i = 0; i + m <= text.length; ) {
    if (!pieces.has(text.slice(i, i + m))) {
      i++;
      continue;
    }
    let end = i + m;
    while (end < text.length && secret.includes(text.slice(i, end + 1))) end++;
    if (!isKeyMaterial(text.slice(i, end))) {
      i++;
      continue;
    }
    out += `${text.slice(copied, i)}[REDACTED]`;
    copied = end;
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Whether `piece` mixes at least two of lower case, upper case and digits (a leading capital before lower case aside). */
function isKeyMaterial(piece: string): boolean {
  const body = piece.replace(/(^|[^A-Za-z])[A-Z](?=[a-z])/g, '$1a');
  return [/[a-z]/, /[A-Z]/, /\d/].filter((kind) => kind.test(body)).length >= 2;
}
