export * from './execute-plan.js';
export * from './guard-stream.js';
export * from './order-targets.js';
export * from './retry-delay.js';
export * from './routing-policy.js';
export * from './target-health.js';
export * from './router-events.js';
export * from './filter-capable-targets.js';
