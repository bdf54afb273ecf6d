export * from './gateway-error.js';
export * from './common-errors.js';
export * from './from-zod-error.js';
export * from './redact-gateway-error.js';
export * from './upstream-error-meaning.js';
export * from './error-body.js';
export * from './redact-secrets.js';
