import type { Gateway } from '@switchyard/core';

/** What every route needs: the gateway, the JSON body limit (bytes or `20mb`), and model → provider for the log. */
export interface RouteDeps {
  gateway: Gateway;
  bodyLimit: number | string;
  providerOf: (model: string) => string | undefined;
}
