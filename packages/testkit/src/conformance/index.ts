// `@switchyard/testkit/conformance`: the adapter conformance suite (vitest).
export type * from './adapter-conformance-options.js';
