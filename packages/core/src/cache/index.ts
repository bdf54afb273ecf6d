export * from './cache-key.js';
export * from './cached-response.js';
export * from './lru-response-cache-store.js';
export * from './response-cache.js';
export * from './response-cache-store.js';
