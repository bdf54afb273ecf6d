export * from './upstream-dispatcher.js';
export * from './upstream-request.js';
export * from './upstream-body-limits.js';
export * from './redact-secrets.js';
export * from './parse-sse-stream.js';
export * from './stray-stream-text-error.js';
export * from './encode-sse.js';
export * from './embedding-encoding.js';
