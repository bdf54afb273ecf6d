import { type ChatCompletionChunk, GatewayError, type ServerSentEvent, mapTransportError, upstreamInvalidResponseError } from '@switchyard/core';
import { checkPromptFeedback } from './check-prompt-feedback.js';
import { convertCandidateParts } from './convert-gemini-candidate-parts.js';
import type { GeminiGenerateContentResponse, GeminiUsageMetadata } from './gemini-types.js';
import { mapGeminiError } from './map-gemini-error.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { mapGeminiUsage } from './map-gemini-usage.js';

async function* convertEvents(events: AsyncIterable<ServerSentEvent>, provider: string, model: string): AsyncGenerator<ChatCompletionChunk> {
  const created = Math.floor(Date.now() / 1000);
  let id = 'chatcmpl-gemini';
  let usage: GeminiUsageMetadata | undefined;
  const started = new Set<number>();
  const toolCallCount = new Map<number, number>();
  const finished = new Set<number>();
  let first = true;
  for await (const sse of events) {
    let event: GeminiGenerateContentResponse & { error?: { code?: number; message?: string; status?: string } };
    try {
      event = JSON.parse(sse.data) as typeof event;
    } catch (error) {
      throw upstreamInvalidResponseError(provider, 'a stream event is not valid JSON.', error);
    }
    if (event.error) throw mapGeminiError(provider, event.error.code ?? 500, JSON.stringify(event), {}, []);
    if (first) {
      checkPromptFeedback(event);
      first = false;
    }
    if (event.responseId) id = `chatcmpl-${event.responseId}`;
    if (event.usageMetadata) usage = event.usageMetadata;
    const choices: ChatCompletionChunk['choices'] = [];
    for (const [i, candidate] of (event.candidates ?? []).entries()) {
      const index = candidate.index ?? i;
      const { text, toolCalls } = convertCandidateParts(candidate.content?.parts);
      const delta: Record<string, unknown> = {};
      if (!started.has(index)) {
        started.add(index);
        delta.role = 'assistant';
      }
      if (text) delta.content = text;
      if (toolCalls.length > 0) {
        const offset = toolCallCount.get(index) ?? 0;
        toolCallCount.set(index, offset + toolCalls.length);
        delta.tool_calls = toolCalls.map((call, k) => ({ index: offset + k, ...call }));
      }
      const finish = candidate.finishReason ? mapGeminiFinishReason(candidate.finishReason, (toolCallCount.get(index) ?? 0) > 0) : null;
      if (finish) finished.add(index);
      if (Object.keys(delta).length > 0 || finish) choices.push({ index, delta, finish_reason: finish });
    }
    if (choices.length > 0) yield { id, object: 'chat.completion.chunk', created, model: event.modelVersion ?? model, choices };
  }
  if (finished.size === 0) throw upstreamInvalidResponseError(provider, 'the stream ended before any finishReason.');
  if (usage) yield { id, object: 'chat.completion.chunk', created, model, choices: [], usage: mapGeminiUsage(usage) };
}

/**
 * Gemini `streamGenerateContent?alt=sse` events (each a partial GenerateContentResponse; CRLF framing; no
 * terminator) -> OpenAI `chat.completion.chunk`s as they arrive: per candidate index a role on its first chunk, text
 * deltas, function calls as complete `tool_calls` entries (indexes counted per candidate), the finish reason on its
 * last chunk; then one usage-only chunk from the last (cumulative) `usageMetadata`. A blocked prompt throws 400; an
 * `error` object in the stream throws its mapped error; a stream that ends with no finishReason, or breaks, throws
 * 502/504 rather than ending quietly.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export async function* convertGeminiStream(events: AsyncIterable<ServerSentEvent>, provider: string, model: string, signal: AbortSignal): AsyncGenerator<ChatCompletionChunk> {
  try {
    yield* convertEvents(events, provider, model);
  } catch (error) {
    throw GatewayError.isInstance(error) ? error : mapTransportError(provider, error, signal);
  }
}
