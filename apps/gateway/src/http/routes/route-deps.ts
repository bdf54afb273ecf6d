import type { Accounts } from '@switchyard/accounts';
import type { Gateway } from '@switchyard/core';

/** What every route needs: the gateway, the JSON body limit (bytes or `20mb`), model → provider for the log, accounts. */
export interface RouteDeps {
  gateway: Gateway;
  bodyLimit: number | string;
  providerOf: (model: string) => string | undefined;
  /** Virtual keys, limits and the usage ledger, when configured. */
  accounts?: Accounts;
  /** Gateway and upstream keys, redacted from mid-stream error events. */
  secrets?: readonly string[];
  /**
   * Whether `/v1/batches` of deployments with a batch API of their own run there (config `batches.native`): the batch
   * prices `GET /v1/models` publishes follow it. Default true.
   */
  nativeBatches?: boolean;
  /** Stream keep-alive and slow-client settings, ms. */
  sse?: { keepAliveMs?: number; writeTimeoutMs?: number };
}

/** The {@link RouteDeps} of `gateway`: `providerOf` resolves a model's first provider (undefined when unknown). */
export function createRouteDeps(gateway: Gateway, bodyLimit: number | string, accounts?: Accounts): RouteDeps {
  return {
    gateway,
    bodyLimit,
    accounts,
    providerOf: (model) => {
      try {
        return gateway.router.resolve(model).provider;
      } catch {
        return undefined;
      }
    },
  };
}
