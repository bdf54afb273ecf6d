export * from './adapter-spec-version.js';
export * from './gateway-warning.js';
export * from './adapter-context.js';
export * from './provider-adapter.js';
export * from './provider-factory.js';
export * from './report-dropped-parameters.js';
export * from './native-messages.js';
export * from './native-responses.js';
