import { readFile } from 'node:fs/promises';
import { ConfigError } from '../config/config-error.js';

/** Suffix of a provider setting whose value is the path of a file holding the setting (`api_key_file`). */
const FILE_SUFFIX = '_file';
/** Largest secret file read, bytes: a key, a token or a small JSON credential, never a data file. */
const MAX_SECRET_BYTES = 64 * 1024;

/**
 * Resolves `<name>_file: <path>` settings of provider `provider` (e.g. `api_key_file: /run/secrets/openai`, as Docker
 * and Kubernetes mount secrets): each becomes `<name>` holding the file's text without its trailing whitespace, read
 * now (again on every `SIGHUP`). Returns the settings to give the adapter and the secrets read (for redaction).
 * Throws ConfigError naming `providers.<provider>.<name>_file` when the file cannot be read, is empty or larger than
 * 64 KiB, or when `<name>` is set too.
 */
export async function readSecretFiles(
  provider: string,
  settings: Record<string, unknown>,
): Promise<{ settings: Record<string, unknown>; secrets: string[] }> {
  const resolved: Record<string, unknown> = {};
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(settings)) {
    if (!name.endsWith(FILE_SUFFIX) || typeof value !== 'string') {
      if (!(name in resolved)) resolved[name] = value;
      continue;
    }
    const target = name.slice(0, -FILE_SUFFIX.length);
    const where = `providers.${provider}.${name}`;
    if (settings[target] !== undefined)
      throw new ConfigError(`${where}: set either '${target}' or '${name}', not both.`);
    let text: string;
    try {
      const bytes = await readFile(value);
      if (bytes.length > MAX_SECRET_BYTES) throw new Error(`larger than ${MAX_SECRET_BYTES} bytes`);
      text = bytes.toString('utf8').trimEnd();
    } catch (error) {
      throw new ConfigError(
        `${where}: cannot read '${value}': ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        { cause: error },
      );
    }
    if (!text) throw new ConfigError(`${where}: '${value}' is empty.`);
    resolved[target] = text;
    secrets.push(text);
  }
  return { settings: resolved, secrets };
}
