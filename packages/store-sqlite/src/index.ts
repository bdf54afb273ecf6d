export { SqliteAccountStore } from './sqlite-account-store.js';
