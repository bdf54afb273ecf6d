import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  type ProviderAdapter,
  parseSSEStream,
  invalidRequestError,
  sendUpstreamRequest,
  type UpstreamCallSettings,
  type UpstreamErrorMapper,
  type UpstreamTimeouts,
} from '@switchyard/core';
import { anthropicPassThroughHeaders } from './anthropic-beta-headers.js';
import { anthropicEventsResult, anthropicJsonResult, readAnthropicCountTokens } from './anthropic-pass-through.js';
import { convertAnthropicResponse } from './convert-anthropic-response.js';
import { convertAnthropicStream } from './convert-anthropic-stream.js';
import { convertToAnthropicRequest } from './convert-to-anthropic-request.js';
import { listAnthropicModels } from './list-anthropic-models.js';
import { mapAnthropicError, mapAnthropicPassThroughError } from './map-anthropic-error.js';
import { fanOutChoices } from './merge-choices.js';
import { readAnthropicMessage } from './read-anthropic-message.js';

/** Options of {@link createAnthropic}. */
export interface AnthropicOptions {
  /** Anthropic API key, sent as `x-api-key` (never in a URL, redacted from error messages). */
  apiKey: string;
  /** API origin, default `https://api.anthropic.com` (a trailing `/v1` is accepted); the adapter appends `/v1/...`. */
  baseURL?: string;
  /** `anthropic-version` header. Default `2023-06-01`. */
  version?: string;
  /** `max_tokens` (tokens) when a request gives none and `maxTokensByModel` has no entry. Default 4,096. */
  defaultMaxTokens?: number;
  /** `max_tokens` (tokens) per upstream model id when a request gives none; an exact id, else the longest prefix. */
  maxTokensByModel?: Record<string, number>;
  /** Extra headers on every request, e.g. `{ "anthropic-beta": "..." }`. */
  headers?: Record<string, string>;
  /**
   * Per-call upstream limits, ms: `headersMs` (request sent to response headers) and `bodyIdleMs` (longest gap between
   * two body chunks); over either: 504. Default: the shared pool's (600,000 and 300,000 ms).
   */
  timeouts?: Omit<UpstreamTimeouts, 'connectMs'>;
  /** Largest `n` accepted (each choice is one upstream call); above it the request gets 400 naming `n`. Default 8. */
  maxN?: number;
}

/** `headers` without `anthropic-beta` or `anthropic-version` in any spelling (a pass-through sets its own). */
function withoutAnthropicHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!/^anthropic-(beta|version)$/i.test(name)) out[name] = value;
  return out;
}

/** The upstream request of {@link createAnthropic}: `send(path, ...)` and the secrets it redacts from errors. */
type AnthropicSend = (
  path: string,
  provider: string,
  signal: AbortSignal,
  body?: string,
  traceHeaders?: Record<string, string>,
  upstream?: UpstreamCallSettings,
  passThrough?: Readonly<Record<string, string>>,
) => ReturnType<typeof sendUpstreamRequest>;

/**
 * Builds the request sender of {@link createAnthropic}: `<baseURL>/v1<path>` with `x-api-key` and `anthropic-version`
 * (GET without a body, else a JSON POST); with `passThrough` (the client's headers) its betas and version are used and
 * errors are kept as they came (`mapAnthropicPassThroughError`), else mapped by `mapAnthropicError`.
 */
function anthropicSender(options: AnthropicOptions): { send: AnthropicSend; secrets: string[] } {
  const baseURL = (options.baseURL ?? 'https://api.anthropic.com').replace(/\/+$/, '').replace(/\/v1$/, '');
  const secrets = [options.apiKey];
  const version = options.version ?? '2023-06-01';
  const headers = { ...options.headers, 'x-api-key': options.apiKey, 'anthropic-version': version };
  const send = (
    path: string,
    provider: string,
    signal: AbortSignal,
    body?: string,
    traceHeaders?: Record<string, string>,
    upstream?: UpstreamCallSettings,
    passThrough?: Readonly<Record<string, string>>,
  ) => {
    const mapError: UpstreamErrorMapper = (status, text, responseHeaders) =>
      (passThrough ? mapAnthropicPassThroughError : mapAnthropicError)(
        provider,
        status,
        text,
        responseHeaders,
        secrets,
      );
    const merged = passThrough
      ? { ...withoutAnthropicHeaders(headers), ...anthropicPassThroughHeaders(passThrough, options.headers, version) }
      : headers;
    return sendUpstreamRequest({
      provider,
      upstream,
      url: `${baseURL}/v1${path}`,
      method: body === undefined ? 'GET' : 'POST',
      headers:
        body === undefined
          ? { ...traceHeaders, ...merged }
          : { ...traceHeaders, ...merged, 'content-type': 'application/json' },
      body,
      signal,
      timeouts: options.timeouts,
      mapError,
    });
  };
  return { send, secrets };
}

/** Default {@link AnthropicOptions.maxN}: at most 8 concurrent upstream calls per request. */
export const DEFAULT_ANTHROPIC_MAX_N = 8;

/**
 * An adapter serving OpenAI-format chat completions from Anthropic's Messages API, plus Anthropic's model list:
 * - `chatCompletions` -> `POST <baseURL>/v1/messages` with `x-api-key` and `anthropic-version`; the request is
 *   translated by {@link convertToAnthropicRequest} (dropped parameters are reported with `context.warn`), the answer
 *   by {@link convertAnthropicResponse}, a stream chunk by chunk by {@link convertAnthropicStream};
 * - `n` > 1 (at most `maxN`, default 8; above it 400 naming `n`): Anthropic has no `n`, so n requests run concurrently and their answers become choices 0..n-1 with summed
 *   usage (streamed: the chunks interleave as they arrive, each carrying its choice index, one id, one usage chunk at
 *   the end); when one fails, the others are aborted and its error is thrown;
 * - `anthropicMessages` (the `/v1/messages` pass-through) -> `POST <baseURL>/v1/messages` with the body as it came, the
 *   client's `anthropic-version` (else the configured one) and its `anthropic-beta` merged with the configured betas;
 *   events and JSON come back unchanged, and an error answer is kept as it came (`upstreamAnswer`) for the front door to
 *   return byte for byte; `anthropicCountTokens` -> `POST <baseURL>/v1/messages/count_tokens` likewise;
 * - `listModels` -> `GET <baseURL>/v1/models` ({@link listAnthropicModels});
 * - embeddings, audio and images are absent: Anthropic has none, and the gateway answers 400 `unsupported_operation`.
 * Throws GatewayError: 400 for requests Anthropic cannot serve (naming the field); the upstream's errors per
 * {@link mapAnthropicError} (529 -> 503, `retry-after` kept, the key redacted); 502 when the upstream is unreachable,
 * resets or answers something that is not a message; 504 on timeouts; the abort reason when `context.signal` aborts
 * (the upstream request is closed at once).
 * @see https://docs.anthropic.com/en/api/messages
 */
export function createAnthropic(options: AnthropicOptions): ProviderAdapter {
  const { send, secrets } = anthropicSender(options);

  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'anthropic',
    webSearch: true,
    async chatCompletions(request, context) {
      const { body, jsonMode, warnings } = convertToAnthropicRequest(request, options);
      for (const warning of warnings) context.warn(warning);
      const json = JSON.stringify(body);
      const n = request.n ?? 1;
      const one = async (choiceIndex: number, signal: AbortSignal, id?: string) => {
        const response = await send('/messages', context.provider, signal, json, context.headers, context.upstream);
        if (body.stream) {
          return convertAnthropicStream(parseSSEStream(response.body), {
            provider: context.provider,
            signal,
            choiceIndex,
            id,
            jsonMode,
            jsonText: jsonMode && body.tool_choice?.type === 'auto',
            secrets,
          });
        }
        return convertAnthropicResponse(await readAnthropicMessage(context.provider, response, signal), {
          index: choiceIndex,
          jsonMode,
        });
      };
      if (n === 1) return one(0, context.signal);
      const maxN = options.maxN ?? DEFAULT_ANTHROPIC_MAX_N;
      if (n > maxN) {
        throw invalidRequestError(
          `Invalid 'n': at most ${maxN} choices per request for provider '${context.provider}' (each is one upstream call).`,
          'n',
          'decimal_above_max_value',
        );
      }

      return fanOutChoices(n, one, context.signal, `chatcmpl-${context.requestId}`, body.stream === true);
    },
    async anthropicMessages(request, context) {
      const response = await send(
        '/messages',
        context.provider,
        context.signal,
        JSON.stringify(request),
        context.headers,
        context.upstream,
        context.clientHeaders ?? {},
      );
      if (request.stream === true)
        return anthropicEventsResult(
          context.provider,
          parseSSEStream(response.body, { provider: context.provider }),
          secrets,
        );
      return anthropicJsonResult(context.provider, response, context.signal);
    },
    async anthropicCountTokens(request, context) {
      const response = await send(
        '/messages/count_tokens',
        context.provider,
        context.signal,
        JSON.stringify(request),
        context.headers,
        context.upstream,
        context.clientHeaders ?? {},
      );
      return readAnthropicCountTokens(context.provider, response, context.signal);
    },
    listModels(context: AdapterCallContext) {
      return listAnthropicModels(
        context.provider,
        (path) => send(path, context.provider, context.signal, undefined, context.headers, context.upstream),
        context.signal,
      );
    },
  };
}
