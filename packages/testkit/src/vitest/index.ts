export * from './use-mock-upstream.js';
