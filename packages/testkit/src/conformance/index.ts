// The adapter conformance suite (vitest) is exported from `@switchyard/testkit/conformance`.
export {};
