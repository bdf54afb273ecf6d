export * from './fixtures/index.js';
export * from './mock-upstream/index.js';
