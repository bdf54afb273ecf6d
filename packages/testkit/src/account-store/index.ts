// `@switchyard/testkit/account-store`: the behaviour suite every AccountStore runs (vitest).
export { type AccountStoreFactory, describeAccountStore, usageRow } from './describe-account-store.js';
export { type BatchStoreFactory, describeBatchStore } from './describe-batch-store.js';
