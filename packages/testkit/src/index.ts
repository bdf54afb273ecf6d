export * from './audio/make-wav.js';
export * from './aws/index.js';
export * from './fixtures/index.js';
export * from './google/google-token-mock.js';
export * from './mock-upstream/index.js';
export * from './replays/openai-replay-routes.js';
export * from './redis-server.js';
export * from './upstream/counting-upstream.js';
