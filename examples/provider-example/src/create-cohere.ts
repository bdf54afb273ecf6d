import {
  ADAPTER_SPEC_VERSION,
  type ProviderAdapter,
  parseSSEStream,
  readUpstreamJson,
  sendUpstreamRequest,
} from '@switchyard/core';
import { cohereChatResponseSchema } from './cohere-api.js';
import { convertCohereResponse } from './convert-cohere-response.js';
import { convertCohereStream } from './convert-cohere-stream.js';
import { convertToCohereChatRequest } from './convert-to-cohere-chat-request.js';
import { mapCohereError } from './map-cohere-error.js';

/** Options of {@link createCohere}. */
export interface CohereOptions {
  /** Cohere API key, sent as `Authorization: Bearer`. */
  apiKey: string;
  /** Default `https://api.cohere.com/v2`. */
  baseURL?: string;
}

/**
 * A Switchyard adapter serving OpenAI-format chat completions (plain and streamed) from Cohere's v2 Chat API.
 * Other operations are absent, so the gateway answers them with 400 `unsupported_operation`.
 * @see https://docs.cohere.com/reference/chat
 */
export function createCohere(options: CohereOptions): ProviderAdapter {
  const baseURL = (options.baseURL ?? 'https://api.cohere.com/v2').replace(/\/+$/, '');
  const secrets = [options.apiKey];
  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'switchyard-provider-example',
    async chatCompletions(request, context) {
      const response = await sendUpstreamRequest({
        provider: context.provider,
        url: `${baseURL}/chat`,
        method: 'POST',
        // The call's trace headers (W3C traceparent when tracing is on) go with every upstream request.
        headers: {
          ...context.headers,
          authorization: `Bearer ${options.apiKey}`,
          'content-type': 'application/json',
          accept: request.stream ? 'text/event-stream' : 'application/json',
        },
        body: JSON.stringify(convertToCohereChatRequest(request)),
        signal: context.signal,
        // The gateway's settings for this call: its connection pool, the provider's body limits, and the signal that
        // the upstream answered (it stops the first-byte timer and opens a stream's early headers).
        upstream: context.upstream,
        mapError: (status, text) => mapCohereError(context.provider, status, text, secrets),
      });
      if (request.stream)
        return convertCohereStream(parseSSEStream(response.body), context.provider, request.model, context.signal);
      const body = await readUpstreamJson(context.provider, response, context.signal, cohereChatResponseSchema);
      return convertCohereResponse(body, request.model);
    },
  };
}
