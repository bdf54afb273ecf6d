import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ProviderAdapter,
  type UpstreamTimeouts,
  parseSSEStream,
  readUpstreamJson,
  sendUpstreamRequest,
} from '@switchyard/core';
import type { AnthropicMessagesResponse } from './anthropic-types.js';
import { convertAnthropicResponse } from './convert-anthropic-response.js';
import { convertAnthropicStream } from './convert-anthropic-stream.js';
import { convertToAnthropicRequest } from './convert-to-anthropic-request.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { mergeChoices, mergeChoiceStreams } from './merge-choices.js';

/** Options of {@link createAnthropic}. */
export interface AnthropicOptions {
  /** Anthropic API key, sent as `x-api-key`. */
  apiKey: string;
  /** Default `https://api.anthropic.com` (the adapter appends `/v1/...`). */
  baseURL?: string;
  /** `anthropic-version` header. Default `2023-06-01`. */
  version?: string;
  /** `max_tokens` when a request has none, tokens: per upstream model id, then for all. Default 4,096. */
  maxTokens?: { byModel?: Record<string, number>; fallback?: number };
  /** Extra headers on every request (e.g. `anthropic-beta`). */
  headers?: Record<string, string>;
  timeouts?: UpstreamTimeouts;
}

/**
 * An adapter serving OpenAI-format chat completions from Anthropic's Messages API, plus Anthropic's model list.
 * `n` > 1 runs n requests concurrently and returns n choices with summed usage (streamed: interleaved chunks carrying
 * their choice index). Embeddings, audio and images are absent: the gateway answers 400 `unsupported_operation`.
 * @see https://docs.anthropic.com/en/api/messages
 */
export function createAnthropic(options: AnthropicOptions): ProviderAdapter {
  const baseURL = (options.baseURL ?? 'https://api.anthropic.com').replace(/\/+$/, '').replace(/\/v1$/, '');
  const secrets = [options.apiKey];
  const headers = { ...options.headers, 'x-api-key': options.apiKey, 'anthropic-version': options.version ?? '2023-06-01' };
  const send = (path: string, context: AdapterCallContext, body?: string) =>
    sendUpstreamRequest({
      provider: context.provider,
      url: `${baseURL}/v1${path}`,
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      body,
      signal: context.signal,
      timeouts: options.timeouts,
      mapError: (status, text, responseHeaders) => mapAnthropicError(context.provider, status, text, responseHeaders, secrets),
    });

  const one = async (request: ChatCompletionRequest, context: AdapterCallContext, choiceIndex: number, id?: string) => {
    const body = convertToAnthropicRequest(request, options.maxTokens);
    const response = await send('/messages', context, JSON.stringify(body));
    if (request.stream) return convertAnthropicStream(parseSSEStream(response.body), { provider: context.provider, signal: context.signal, choiceIndex, id });
    return convertAnthropicResponse(await readUpstreamJson<AnthropicMessagesResponse>(context.provider, response, context.signal), choiceIndex);
  };

  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'anthropic',
    async chatCompletions(request, context) {
      const n = request.n ?? 1;
      if (n === 1) return one(request, context, 0);
      const id = `msg_switchyard_${context.requestId}`;
      const results = await Promise.all(Array.from({ length: n }, (_, i) => one(request, context, i, id)));
      return request.stream ? mergeChoiceStreams(results as AsyncIterable<ChatCompletionChunk>[]) : mergeChoices(results as ChatCompletion[]);
    },
    async listModels(context) {
      const response = await send('/models?limit=1000', context);
      const list = await readUpstreamJson<{ data?: { id: string; created_at?: string }[] }>(context.provider, response, context.signal);
      return (list.data ?? []).map((m) => ({ id: m.id, created: m.created_at ? Math.floor(Date.parse(m.created_at) / 1000) : undefined }));
    },
  };
}
