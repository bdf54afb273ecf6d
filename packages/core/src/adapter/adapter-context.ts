import type { UpstreamCallSettings } from '../utils/upstream-body-limits.js';
import type { GatewayWarning } from './gateway-warning.js';

/**
 * Per-call context given to every adapter method.
 */
export interface AdapterCallContext {
  /** Aborted when the client disconnects or a deadline passes; adapters pass it to every upstream request. */
  signal: AbortSignal;
  /** The gateway's request id (`x-request-id`), for upstream correlation headers and logs. */
  requestId: string;
  /** The provider's name in the gateway config, e.g. `openai` or `groq`; used in error messages. */
  provider: string;
  /**
   * Extra headers for the upstream request, e.g. W3C `traceparent` (trace context propagation); adapters add them
   * to every upstream request they make for this call. Absent when there are none.
   */
  headers?: Record<string, string>;
  /**
   * Headers of the client's request that the front door's protocol says to forward on a pass-through (lower-case
   * names), e.g. `anthropic-beta` and `anthropic-version` on `/v1/messages`. Absent when there are none. Adapters
   * that pass a request through send them in the form their upstream takes (see each adapter); others ignore them.
   * @see https://code.claude.com/docs/en/llm-gateway-protocol
   */
  clientHeaders?: Readonly<Record<string, string>>;
  /** Records a {@link GatewayWarning} (sent as a response header, never in the body). */
  warn(warning: GatewayWarning): void;
  /**
   * The gateway's settings for this call's upstream requests (its connection pool, the provider's body limits, and a
   * hook marking when the upstream accepted the call). Adapters pass it to every `sendUpstreamRequest` as `upstream`.
   */
  upstream?: UpstreamCallSettings;
}
