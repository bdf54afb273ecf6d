export * from './started-in-before-all.js';
export * from './use-mock-upstream.js';
export * from './use-redis-server.js';
