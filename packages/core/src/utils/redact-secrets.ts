/**
 * Replaces every occurrence of each secret (at least 6 characters) in `text` with `[REDACTED]`.
 * Used on upstream error messages before they reach a client or a log, so that an upstream echoing a key
 * never leaks it.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 6 && out.includes(secret)) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}
