export * from './event-stream-frames.js';
export * from './verify-sigv4.js';
