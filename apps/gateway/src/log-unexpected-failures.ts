import { redactSecrets } from '@switchyard/core';
import type { Logger } from 'pino';
import { currentRequestId } from './http/request-scope.js';

/**
 * Makes a promise rejection that nobody handled a logged error instead of the end of the process (Node's default
 * since v15 is to exit): each one is logged at `error` as `unhandled rejection` with the `request_id` of the request
 * it came from (when it happened inside one) and the error's type and message (`secrets` redacted). Returns a function
 * that removes the handler. Installed by the `switchyard` CLI; embedders decide for their own process.
 * @see https://nodejs.org/api/process.html#event-unhandledrejection
 */
export function logUnexpectedFailures(logger: Logger, secrets: readonly string[] = []): () => void {
  const onRejection = unhandledRejectionLogger(logger, secrets);
  process.on('unhandledRejection', onRejection);
  return () => process.off('unhandledRejection', onRejection);
}

/** The `unhandledRejection` listener of {@link logUnexpectedFailures}: logs `reason` with the current request id. */
export function unhandledRejectionLogger(logger: Logger, secrets: readonly string[] = []): (reason: unknown) => void {
  return (reason) => {
    const error = reason instanceof Error ? reason : new Error(String(reason));
    logger.error(
      {
        request_id: currentRequestId(),
        err: { type: error.name, message: redactSecrets(String(error.message), secrets).slice(0, 2_000) },
      },
      'unhandled rejection',
    );
  };
}
