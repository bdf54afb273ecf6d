import { ConfigError } from './config-error.js';

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${VAR}` (and `${VAR:-default}`) in every string of a parsed YAML tree with values from `env`.
 * Throws ConfigError naming the path (e.g. `providers.openai.api_key`) when a variable without default is unset.
 */
export function substituteEnv(value: unknown, env: NodeJS.ProcessEnv, path: string[] = []): unknown {
  if (typeof value === 'string') {
    return value.replace(VARIABLE, (_match, name: string, fallback: string | undefined) => {
      const resolved = env[name];
      if (resolved !== undefined && resolved !== '') return resolved;
      if (fallback !== undefined) return fallback;
      throw new ConfigError(`${path.join('.') || '(root)'}: environment variable ${name} is not set.`);
    });
  }
  if (Array.isArray(value)) return value.map((item, i) => substituteEnv(item, env, [...path, String(i)]));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteEnv(v, env, [...path, k])]));
  }
  return value;
}
