import type { AdapterOperation, UpstreamTimeouts } from '@switchyard/core';
import type { ModerationDialect } from './moderation-dialect.js';
import type { ChatQuirks } from './presets/openai-compatible-preset.js';

/** Options of `createOpenAI`. */
export interface OpenAIOptions {
  /** The upstream API key, sent as `Authorization: Bearer`. Optional for local servers (Ollama, vLLM, LM Studio). */
  apiKey?: string;
  /** Base URL including the version path. Default `https://api.openai.com/v1`; e.g. `https://api.groq.com/openai/v1`. */
  baseURL?: string;
  /** Extra headers sent on every request (e.g. `HTTP-Referer` for OpenRouter). */
  headers?: Record<string, string>;
  /** `OpenAI-Organization` header. */
  organization?: string;
  /** `OpenAI-Project` header. */
  project?: string;
  /**
   * Per-call upstream limits, ms: `headersMs` (request sent to response headers; over it: 504) and `bodyIdleMs`
   * (longest gap between two body chunks; over it: 504). Defaults: the shared pool's (600,000 and 300,000 ms). The
   * connect timeout is process-wide (`setUpstreamConnectTimeout` in core, `routing.timeouts.connect_ms` in config).
   */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
  /** The adapter's kind as reported in `adapter` (metrics, conformance matrix). Default `openai`; presets use their name. */
  adapter?: string;
  /** The operations to offer (default: all of them); the others are absent, so the gateway answers 400 `unsupported_operation`. */
  operations?: readonly AdapterOperation[];
  /** A host's request/answer fix-ups (see the presets, e.g. Mistral's tool-call ids). */
  quirks?: ChatQuirks;
  /** How the host speaks `/moderations` when not as OpenAI does (the Mistral preset's `mistralModerationDialect`). */
  moderation?: ModerationDialect;
  /**
   * How `/v1/responses` reaches this upstream: `translate` (default) runs it as a chat completion; `native` passes the
   * Responses request to the upstream's own `POST /responses` (the adapter then has `openaiResponses`). Only for
   * upstreams that serve the Responses API (OpenAI itself).
   */
  responses?: 'native' | 'translate';
  /**
   * Offer OpenAI's own Batch API (`batches`), so that `/v1/batches` of this provider's models run upstream at OpenAI's
   * batch price. Default true for the `openai` adapter kind; never for the compatible hosts of the presets.
   */
  batches?: boolean;
  /** Send `OpenAI-Beta: realtime=v1` on Realtime sessions (upstreams still on the beta Realtime interface). Default false. */
  realtimeBeta?: boolean;
}
