export { SqliteAccountStore } from './sqlite-account-store.js';
export { SqliteResponseStore } from './sqlite-response-store.js';
export { SqliteBatchStore } from './sqlite-batch-store.js';
