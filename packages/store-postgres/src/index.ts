export { MIGRATION_LOCK_KEY, migrate } from './migrate.js';
export { type Migration, MIGRATIONS } from './migrations.js';
export { PostgresAccountStore } from './postgres-account-store.js';
export type { PostgresStoreOptions } from './migrated-pool.js';
export { PostgresResponseStore, type PostgresResponseStoreOptions } from './postgres-response-store.js';
export { PostgresBatchStore } from './postgres-batch-store.js';
