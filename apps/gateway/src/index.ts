export { buildGateway, type BuildGatewayOptions } from './build-gateway.js';
export { ConfigError } from './config/config-error.js';
export { configFromEnv } from './config/config-from-env.js';
export { type GatewayConfig, gatewayConfigSchema } from './config/config-schema.js';
export { loadConfigFile, parseConfig } from './config/load-config.js';
export { type AppOptions, createApp } from './http/create-app.js';
export { type ExpressMessageClasses, expressMessageClasses } from './http/express-message-classes.js';
export { type ReadinessCheck, type ReadinessResult, readinessHandler } from './http/readiness.js';
export { type RouterOptions, createRouter } from './http/create-router.js';
export { handleErrors } from './http/middleware/handle-errors.js';
export { requestContext } from './http/middleware/request-context.js';
export { loadProviderFactory } from './providers/load-provider-factory.js';
export { type RunningServer, type StartServerOptions, startServer } from './start-server.js';
export { logUnexpectedFailures } from './log-unexpected-failures.js';
export { currentRequestId } from './http/request-scope.js';
export {
  LOG_BUFFER_BYTES,
  LOG_FLUSH_MS,
  LOG_MAX_WRITE_BYTES,
  type LogSettings,
  createLogger,
} from './logging/create-logger.js';
