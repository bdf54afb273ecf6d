// `@switchyard/testkit/account-store`: the behaviour suites every AccountStore, BatchStore and ResponseStore runs (vitest).
export { type AccountStoreFactory, describeAccountStore, usageRow } from './describe-account-store.js';
export { type BatchStoreFactory, describeBatchStore } from './describe-batch-store.js';
export {
  type ClosableResponseStore,
  describeResponseStore,
  type ResponseStoreFactory,
} from './describe-response-store.js';
