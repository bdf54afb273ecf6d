import type { UpstreamTimeouts } from '@switchyard/core';
import type { VertexTokenSource } from './vertex-token-source.js';

/** Options of `createVertex`. */
export interface VertexOptions {
  /** Google Cloud project id. */
  project: string;
  /** Region, e.g. `us-central1`, or `global`. */
  location: string;
  /** Access tokens (see `createVertexTokenSource`). */
  tokens: VertexTokenSource;
  /** The endpoint origin. Default `https://{location}-aiplatform.googleapis.com` (`global`: `https://aiplatform.googleapis.com`). */
  baseURL?: string;
  /** `max_tokens` (tokens) sent to Claude when a request gives none. Default 4,096. */
  defaultMaxTokens?: number;
  /** Per-call upstream limits, ms (see core's `UpstreamTimeouts`). */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
}
