export { SqliteAccountStore } from './sqlite-account-store.js';
export { SqliteResponseStore } from './sqlite-response-store.js';
