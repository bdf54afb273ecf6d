export * from './schemas/index.js';
export * from './errors/index.js';
export * from './adapter/index.js';
export * from './utils/index.js';
export * from './gateway/index.js';
export * from './routing/index.js';
export * from './cache/index.js';
