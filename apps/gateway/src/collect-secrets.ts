import type { GatewayConfig } from './config/config-schema.js';

const SECRET_KEY = /key|secret|token|password|credential/i;

/** The Postgres URL and its password, which appear in driver errors in either form. */
function databaseSecrets(url: string | undefined): string[] {
  if (!url) return [];
  try {
    const password = decodeURIComponent(new URL(url).password);
    return password ? [url, password] : [url];
  } catch {
    return [url];
  }
}

/**
 * Every secret in a config (gateway keys, provider settings whose name looks secret, the Postgres and Redis URLs and
 * their passwords),
 * for redaction in logs and readiness answers.
 */
export function collectSecrets(config: GatewayConfig): string[] {
  const found: string[] = [
    ...config.keys,
    ...(config.admin ? [config.admin.master_key] : []),
    ...(config.admin?.oidc?.client_secret ? [config.admin.oidc.client_secret] : []),
    ...databaseSecrets(config.store?.postgres),
    ...databaseSecrets(config.redis?.url),
  ];
  const visit = (value: unknown, name: string) => {
    if (typeof value === 'string' && SECRET_KEY.test(name)) found.push(value);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) visit(v, SECRET_KEY.test(name) ? name : k);
  };
  for (const provider of Object.values(config.providers)) visit(provider, '');
  return found.filter((s) => s.length >= 6);
}
