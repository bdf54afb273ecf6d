/**
 * Version of the adapter contract ({@link ProviderAdapter}, {@link ProviderFactory}). The gateway refuses
 * an adapter built for another major version with a startup error. Bumped only on breaking changes.
 */
export const ADAPTER_SPEC_VERSION = 1 as const;
