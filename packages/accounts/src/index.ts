export type * from './account-store.js';
export { ADMIN_ROLES, type AdminRole, type AdminSession, type AdminSessionStore } from './admin-session.js';
export type * from './audit-entry.js';
export { type AuditInput, AuditLog, type AuditLogOptions } from './audit-log.js';
export {
  type AccountsOptions,
  type Admission,
  type BudgetSettledEvent,
  type CallEstimate,
  Accounts,
  type Principal,
} from './accounts.js';
export type { ScopeReservation } from './admission.js';
export { type CallParties, type CallScope, callScopes } from './call-scopes.js';
export {
  applyLimitChanges,
  type BudgetPeriod as LimitBudgetPeriod,
  type LimitFields,
  limitFieldsOf,
  optionalLimits,
} from './limit-fields.js';
export { limitFieldsShape } from './limit-fields-schema.js';
export {
  columnValues,
  GROUP_COLUMNS,
  jsonText,
  KEY_COLUMNS,
  KEY_SECRET_COLUMNS,
  LIMIT_COLUMNS,
} from './store-columns.js';
export { type RecordTable, type StoreTables, TableBackedAccountStore } from './table-backed-account-store.js';
export type { Team } from './team.js';
export {
  type CreateTeamInput,
  type UpdateTeamInput,
  createTeamInputSchema,
  updateTeamInputSchema,
} from './team-input-schema.js';
export { TeamRegistry, teamNotFoundError, toTeamView } from './team-registry.js';
export type { Organization } from './organization.js';
export {
  type CreateOrganizationInput,
  type UpdateOrganizationInput,
  createOrganizationInputSchema,
  updateOrganizationInputSchema,
} from './organization-input-schema.js';
export { OrganizationRegistry, organizationNotFoundError } from './organization-registry.js';
export {
  type LimitGroup,
  LimitGroupRegistry,
  type LimitGroupKind,
  type LimitGroupTable,
  toGroupView,
} from './limit-group-registry.js';
export type { KeyGroups } from './call-admission.js';
export { budgetWindow, budgetWindowStart, isTimeZone } from './budget-window.js';
export { BUDGET_THRESHOLDS, type BudgetCrossing, budgetCrossings } from './budget-thresholds.js';
export {
  CATALOG_CACHE_LIMIT,
  catalogCacheSize,
  catalogPrice,
  type PriceSource,
  type ResolvedPrice,
  resolvePrice,
  targetPrice,
} from './catalog-price.js';
export { catalogModelName } from './catalog-model-name.js';
export {
  batchDiscount,
  NATIVE_BATCH_DISCOUNT,
  type PublishedPrice,
  type PublishedPricing,
  publishedPrice,
} from './published-pricing.js';
export { computeCostUsd, type PricedUsageDetails } from './compute-cost.js';
export { IMAGE_OPERATIONS, imageCostUsd, perImagePrice } from './image-cost.js';
export { type CallEstimateDetail, DEFAULT_COMPLETION_TOKENS, estimateCall } from './estimate-call.js';
export {
  MAX_QUEUED_CHARS,
  MAX_TOKENIZED_CHARS,
  TOKENIZE_BUDGET_MS,
  countTextTokens,
  estimatePromptTokens,
  isTokenizerWarm,
  promptText,
  warmTokenizer,
} from './estimate-tokens.js';
export { filterPlanForKey, modelNotPricedError } from './filter-plan.js';
export { callParties, KeyAccounting } from './key-accounting.js';
export { KeyLookupLimiter, type KeyLookupLimiterOptions } from './key-lookup-limiter.js';
export type { KeyChangeFeed } from './key-change-feed.js';
export {
  type CreateKeyInput,
  MAX_GRACE_SECONDS,
  type RotateKeyInput,
  type UpdateKeyInput,
  createKeyInputSchema,
  rotateKeyInputSchema,
  updateKeyInputSchema,
} from './key-input-schema.js';
export { KeyRegistry } from './key-registry.js';
export { KEY_PREFIX, hashSecret, newKeySecret, secretOf } from './key-secret.js';
export { KeyState } from './key-state.js';
export type * from './limiter.js';
export { limitSubjects, requestSlot } from './limiter.js';
export { matchesModelGlob } from './match-model-glob.js';
export { BUDGET_EPSILON_USD, budgetAdmits, MAX_EVICTABLE_COUNTERS, MemoryLimiter } from './memory-limiter.js';
export { formatResetMs, type RateLimitKind, rateLimitHeaders, rateLimitKind } from './rate-limit-error.js';
export { TokenBucket } from './token-bucket.js';
export { UsageLedger, type UsageLedgerOptions } from './usage-ledger.js';
export type * from './usage-query.js';
export type * from './usage-row.js';
export { SPARSE_GROUPS } from './usage-row.js';
export { type BudgetPeriod, toKeyView, type VirtualKey, type VirtualKeyView } from './virtual-key.js';
export type * from './batch-store.js';
export {
  DEFAULT_MAX_BYTES_PER_OWNER,
  type ResponseStore,
  type ResponseStoreLimits,
  type StoredResponse,
  type StoredResponseItem,
  type StoredResponseObject,
  storedItemIds,
} from './response-store.js';
export { computeRealtimeCostUsd, type RealtimeTokens, realtimeTokens } from './realtime-cost.js';
