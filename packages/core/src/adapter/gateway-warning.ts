/**
 * Something an adapter did to a request that the client should know about, e.g. a parameter the upstream
 * does not accept and that was dropped. Reported in the `x-switchyard-warning` response header and the log,
 * never in the body.
 */
export interface GatewayWarning {
  /** Stable machine-readable code, e.g. `unsupported_parameter`. */
  code: string;
  /** The request field concerned, e.g. `logit_bias`. */
  param?: string;
  /** Short human-readable text. */
  message: string;
}
