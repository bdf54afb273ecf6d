export * from './model-definition.js';
export * from './model-capabilities.js';
export * from './route-plan.js';
export * from './cache-settings.js';
