import type { UpstreamTimeouts } from '@switchyard/core';

/** The `api-version` sent when none is configured: the GA data-plane version of 2024-10-21. */
export const DEFAULT_AZURE_API_VERSION = '2024-10-21';

/** The `api-version` of Realtime sessions when none is configured (Azure's realtime preview of 2025-04-01). */
export const DEFAULT_AZURE_REALTIME_API_VERSION = '2025-04-01-preview';

/** Options of `createAzure`. */
export interface AzureOptions {
  /** The resource endpoint, e.g. `https://my-resource.openai.azure.com` (a trailing `/openai` is accepted). */
  baseURL: string;
  /** Resource key, sent as the `api-key` header. One of `apiKey` and `azureADToken` is required. */
  apiKey?: string;
  /** Microsoft Entra ID (Azure AD) access token, sent as `Authorization: Bearer`; wins over `apiKey`. */
  azureADToken?: string;
  /** The `api-version` query parameter of every call. Default {@link DEFAULT_AZURE_API_VERSION}. */
  apiVersion?: string;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** The `api-version` of Realtime sessions (`/openai/realtime`). Default {@link DEFAULT_AZURE_REALTIME_API_VERSION}. */
  realtimeApiVersion?: string;
  /** Per-call upstream limits, ms (see core's `UpstreamTimeouts`). */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
}
