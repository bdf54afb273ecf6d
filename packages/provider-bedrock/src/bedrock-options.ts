import type { UpstreamTimeouts } from '@switchyard/core';
import type { AwsCredentials } from './sign-aws-request.js';

/** Options of `createBedrock`. */
export interface BedrockOptions {
  /** AWS region, e.g. `us-east-1`. */
  region: string;
  /** The access key pair (and session token) requests are signed with (SigV4, service `bedrock`). */
  credentials: AwsCredentials;
  /** The runtime endpoint. Default `https://bedrock-runtime.{region}.amazonaws.com`. */
  baseURL?: string;
  /** The control-plane endpoint (model list). Default `https://bedrock.{region}.amazonaws.com`. */
  controlBaseURL?: string;
  /** Per-call upstream limits, ms (see core's `UpstreamTimeouts`). */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
}
