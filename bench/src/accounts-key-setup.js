// The `accounts-key` row's gateway setup, shared by the row and its measuring scripts.
import { startChild } from './child.js';
import { BENCH_KEY, BENCH_MASTER_KEY, createBenchKey } from './payloads.js';

/** The row's virtual key limits: rpm, tpm and a daily budget, none of them reached by a bench run. */
export const ROW_KEY_LIMITS = {
  rpm_limit: 1_000_000_000,
  tpm_limit: 1_000_000_000,
  budget_usd: 1_000_000,
  budget_period: 'day',
};

/** The extra gateway YAML of the row: the admin master key, the store on Postgres and the limits on Redis (URLs). */
export function accountsYaml({ redis, postgres }) {
  return `admin: { master_key: "${BENCH_MASTER_KEY}" }\nstore: { postgres: "${postgres}" }\nredis: { url: "${redis}" }\n`;
}

/** The key a measuring script sends: the static bench key with `staticKey`, else a new virtual key with the row's limits. */
export function rowKey(origin, staticKey) {
  return staticKey ? Promise.resolve(BENCH_KEY) : createBenchKey(origin, ROW_KEY_LIMITS);
}

/**
 * Starts Redis and Postgres (`services-process.js`) and the mock upstream; resolves with both children and the gateway
 * YAML of the row (none with `staticKey`).
 */
export async function startRowServices(staticKey) {
  const services = await startChild('services-process.js');
  const upstream = await startChild('upstream-process.js');
  return { services, upstream, yaml: staticKey ? '' : accountsYaml(services.ready) };
}
