export * from './mock-reply.js';
export * from './sse-frames.js';
export * from './start-mock-upstream.js';
