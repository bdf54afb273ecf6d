import { describe, expect, it } from 'vitest';
import { collectSecrets } from '../src/collect-secrets.js';
import { configFromEnv } from '../src/config/config-from-env.js';
import { parseConfig } from '../src/config/load-config.js';

const env = {
  GATEWAY_KEY: 'sk-gateway-key-0123456789',
  DATABASE_URL: 'postgres://switchyard:pg-secret-pw@db:5432/switchyard',
};
const base = `
keys: ["\${GATEWAY_KEY}"]
providers:
  openai: { adapter: openai, api_key: sk-openai-000000 }
`;

describe('store config', () => {
  it('takes store.postgres from the DATABASE_URL variable with defaults, and treats the URL and its password as secrets', () => {
    const config = parseConfig(`${base}store:\n  postgres: \${DATABASE_URL}\n`, 'x.yaml', env);
    expect(config.store).toEqual({ postgres: env.DATABASE_URL, timeout_ms: 5_000, ledger_buffer: 100_000 });
    expect(collectSecrets(config)).toEqual(expect.arrayContaining([env.DATABASE_URL, 'pg-secret-pw']));
  });

  it('rejects both stores at once and a URL that is not postgres://', () => {
    expect(() => parseConfig(`${base}store: { sqlite: a.db, postgres: "postgres://h/db" }\n`, 'x.yaml', env)).toThrow(
      /store\.postgres: give either 'sqlite' or 'postgres'/,
    );
    expect(() => parseConfig(`${base}store: { postgres: "mysql://h/db" }\n`, 'x.yaml', env)).toThrow(
      /store\.postgres: a postgres:\/\/ or postgresql:\/\/ URL/,
    );
  });

  it('uses DATABASE_URL without a config file', async () => {
    const config = await configFromEnv({
      SWITCHYARD_API_KEY: env.GATEWAY_KEY,
      OPENAI_API_KEY: 'sk-openai-000000',
      DATABASE_URL: env.DATABASE_URL,
    });
    expect(config.store?.postgres).toBe(env.DATABASE_URL);
    const without = await configFromEnv({ SWITCHYARD_API_KEY: env.GATEWAY_KEY, OPENAI_API_KEY: 'sk-openai-000000' });
    expect(without.store).toBeUndefined();
  });
});
