import { type ChatCompletionChunk, GatewayError, mapTransportError, parseSSEStream, redactSecrets, StrayStreamTextError, upstreamInvalidResponseError } from '@switchyard/core';

/**
 * Turns an OpenAI chat stream (`text/event-stream`: `data: <chunk JSON>` events, then `data: [DONE]`) into chunks,
 * yielded one by one as they arrive. A `data: {"error":{...}}` event throws a GatewayError with that message; a
 * connection that breaks throws 502/504; bad JSON, text that is not SSE (a bare JSON error body is mapped like an error
 * event), or a stream that ends without `[DONE]` before any finish_reason, throws 502 `upstream_invalid_response`.
 * Reasoning fields (`delta.reasoning_content` of DeepSeek, vLLM...) pass through untouched. Chunks pass through
 * unchanged (unknown fields included). Closing the iterator early destroys the upstream body.
 * @see https://platform.openai.com/docs/api-reference/chat-streaming
 */
export async function* parseOpenAIChunkStream(
  provider: string,
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
  signal: AbortSignal,
  secrets: readonly (string | undefined)[],
): AsyncGenerator<ChatCompletionChunk> {
  let finished = false;
  let sawFinishReason = false;
  try {
    for await (const event of parseSSEStream(body)) {
      if (event.data === '[DONE]') {
        finished = true;
        return;
      }
      if (event.data.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(event.data);
      } catch (error) {
        throw upstreamInvalidResponseError(provider, 'a stream event is not valid JSON.', error);
      }
      const upstreamError = streamError(provider, parsed, secrets);
      if (upstreamError) throw upstreamError;
      const chunk = parsed as ChatCompletionChunk;
      if (chunk.choices?.some((c) => c.finish_reason)) sawFinishReason = true;
      yield chunk;
    }
    finished = true;
    // Without `[DONE]`, only a stream that reached a finish_reason is complete; anything else was cut short.
    if (!sawFinishReason) throw upstreamInvalidResponseError(provider, 'the stream ended before data: [DONE].');
  } catch (error) {
    if (GatewayError.isInstance(error)) throw error;
    if (StrayStreamTextError.isInstance(error)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(error.text);
      } catch {
        parsed = undefined;
      }
      throw streamError(provider, parsed, secrets) ?? upstreamInvalidResponseError(provider, 'the stream holds text that is not an event.');
    }
    throw mapTransportError(provider, error, signal);
  } finally {
    if (!finished) body.destroy?.();
  }
}

/** The GatewayError (502, the upstream's message, type and code) for an `{"error":{...}}` object sent mid-stream. */
function streamError(provider: string, parsed: unknown, secrets: readonly (string | undefined)[]): GatewayError | undefined {
  const upstreamError = (parsed as { error?: { message?: string; type?: string; code?: unknown; param?: string } } | undefined)?.error;
  if (!upstreamError || typeof upstreamError !== 'object') return undefined;
  return new GatewayError({
    status: 502,
    type: upstreamError.type ?? 'server_error',
    code: typeof upstreamError.code === 'string' ? upstreamError.code : 'upstream_stream_error',
    param: upstreamError.param ?? null,
    message: redactSecrets(upstreamError.message ?? `The upstream provider '${provider}' failed mid-stream.`, secrets),
  });
}
