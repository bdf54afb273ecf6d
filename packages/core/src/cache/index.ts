export * from './cache-key.js';
export * from './cache-settings.js';
export * from './cached-response.js';
export * from './lru-response-cache-store.js';
export * from './response-cache.js';
export * from './response-cache-store.js';
export * from './serve-cache-hit.js';
export * from './cached-calls.js';
