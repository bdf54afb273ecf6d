import type { GatewayConfig } from './config/config-schema.js';

const SECRET_KEY = /key|secret|token|password|credential/i;

/** Every secret in a config (gateway keys, provider settings whose name looks secret), for log redaction. */
export function collectSecrets(config: GatewayConfig): string[] {
  const found: string[] = [...config.keys, ...(config.admin ? [config.admin.master_key] : [])];
  const visit = (value: unknown, name: string) => {
    if (typeof value === 'string' && SECRET_KEY.test(name)) found.push(value);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, SECRET_KEY.test(name) ? name : k);
  };
  for (const provider of Object.values(config.providers)) visit(provider, '');
  return found.filter((s) => s.length >= 6);
}
