import {
  ADAPTER_SPEC_VERSION,
  type AdapterCallContext,
  type ChatCompletion,
  type EmbeddingResponse,
  type ImagesResponse,
  type ProviderAdapter,
  type UpstreamFormData,
  type UpstreamTimeouts,
  readUpstreamJson,
  sendUpstreamRequest,
} from '@switchyard/core';
import { buildTranscriptionForm } from './build-transcription-form.js';
import { mapOpenAIError } from './map-openai-error.js';
import { parseOpenAIChunkStream } from './parse-openai-chunk-stream.js';

/** Options of {@link createOpenAI}. */
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
  /** Upstream timeouts, ms. */
  timeouts?: UpstreamTimeouts;
  /** Name used in error messages when no provider name is known. Default `openai`. */
  name?: string;
}

/**
 * An adapter for OpenAI's API and every OpenAI-compatible server. Requests are OpenAI's format already, so they are
 * forwarded as they are (unknown fields included); streams are passed chunk by chunk; speech audio is piped; the
 * transcription file is re-sent as multipart. Errors keep the upstream's status and message (529 becomes 503).
 * @see https://platform.openai.com/docs/api-reference
 */
export function createOpenAI(options: OpenAIOptions = {}): ProviderAdapter {
  const baseURL = (options.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const secrets = [options.apiKey];
  const baseHeaders: Record<string, string> = { ...options.headers };
  if (options.apiKey) baseHeaders.authorization = `Bearer ${options.apiKey}`;
  if (options.organization) baseHeaders['openai-organization'] = options.organization;
  if (options.project) baseHeaders['openai-project'] = options.project;

  const send = (path: string, context: AdapterCallContext, init: { body?: string | UpstreamFormData; headers?: Record<string, string>; method?: 'GET' | 'POST' }) =>
    sendUpstreamRequest({
      provider: context.provider,
      url: `${baseURL}${path}`,
      method: init.method,
      headers: { ...baseHeaders, 'x-request-id': context.requestId, ...init.headers },
      body: init.body,
      signal: context.signal,
      timeouts: options.timeouts,
      mapError: (status, text, headers) => mapOpenAIError(context.provider, status, text, headers, secrets),
    });
  const postJson = (path: string, body: unknown, context: AdapterCallContext) =>
    send(path, context, { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

  return {
    specVersion: ADAPTER_SPEC_VERSION,
    adapter: 'openai',

    async chatCompletions(request, context) {
      const response = await postJson('/chat/completions', request, context);
      if (request.stream) {
        const contentType = String(response.headers['content-type'] ?? '');
        if (!contentType.startsWith('text/event-stream')) {
          const text = await response.body.text().catch(() => '');
          throw mapOpenAIError(context.provider, 502, text, {}, secrets, `a stream was asked for but the upstream sent '${contentType || 'no content type'}'.`);
        }
        return parseOpenAIChunkStream(context.provider, response.body, context.signal, secrets);
      }
      return readUpstreamJson<ChatCompletion>(context.provider, response, context.signal);
    },

    async embeddings(request, context) {
      const response = await postJson('/embeddings', request, context);
      return readUpstreamJson<EmbeddingResponse>(context.provider, response, context.signal);
    },

    async transcriptions(request, context) {
      const response = await send('/audio/transcriptions', context, { body: buildTranscriptionForm(request) });
      const contentType = String(response.headers['content-type'] ?? '');
      if (contentType.includes('json')) {
        return { kind: 'json', body: await readUpstreamJson<{ text: string }>(context.provider, response, context.signal) };
      }
      return { kind: 'text', contentType: contentType || 'text/plain; charset=utf-8', body: await response.body.text() };
    },

    async speech(request, context) {
      const response = await postJson('/audio/speech', request, context);
      return { contentType: String(response.headers['content-type'] ?? 'application/octet-stream'), body: response.body };
    },

    async imageGenerations(request, context) {
      const response = await postJson('/images/generations', request, context);
      return readUpstreamJson<ImagesResponse>(context.provider, response, context.signal);
    },

    async listModels(context) {
      const response = await send('/models', context, { method: 'GET' });
      const list = await readUpstreamJson<{ data?: { id: string; created?: number }[] }>(context.provider, response, context.signal);
      return (list.data ?? []).map((m) => ({ id: m.id, created: m.created }));
    },
  };
}
