import {
  type ChatCompletionChunk,
  GatewayError,
  mapTransportError,
  parseJsonOrUndefined,
  readUpstreamEvent,
  type ServerSentEvent,
  StrayStreamTextError,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import { checkPromptFeedback } from './check-prompt-feedback.js';
import { convertCandidateParts } from './convert-gemini-candidate-parts.js';
import { StreamGrounding } from './convert-gemini-grounding.js';
import { convertGeminiLogprobs } from './convert-gemini-logprobs.js';
import { geminiStreamEventSchema } from './gemini-api.js';
import type { GeminiUsageMetadata } from './gemini-types.js';
import { googleErrorBodySchema } from './gemini-error-schema.js';
import { mapGeminiError } from './map-gemini-error.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { mapGeminiUsage } from './map-gemini-usage.js';

async function* convertEvents(
  events: AsyncIterable<ServerSentEvent>,
  provider: string,
  model: string,
  secrets: readonly (string | undefined)[],
): AsyncGenerator<ChatCompletionChunk> {
  const created = Math.floor(Date.now() / 1000);
  let id = 'chatcmpl-gemini';
  let usage: GeminiUsageMetadata | undefined;
  const started = new Set<number>();
  const toolCallCount = new Map<number, number>();
  const finished = new Set<number>();
  const detailCount = new Map<number, number>();
  const grounding = new StreamGrounding();
  let responseId = 'gemini';
  let first = true;
  for await (const sse of events) {
    const event = readUpstreamEvent(provider, geminiStreamEventSchema, sse.data);
    if (event.error) throw mapGeminiStreamError(provider, JSON.stringify(event), event.error.code, secrets);
    if (first) {
      checkPromptFeedback(event);
      first = false;
    }
    if (event.responseId) {
      id = `chatcmpl-${event.responseId}`;
      responseId = event.responseId;
    }
    if (event.usageMetadata) usage = event.usageMetadata;
    const choices: ChatCompletionChunk['choices'] = [];
    // Reasoning that shares an event with answer parts goes out in a chunk of its own first, so that every
    // reasoning_content piece precedes the content it leads to.
    const reasoningFirst: ChatCompletionChunk['choices'] = [];
    // Grounding goes out after the text it cites: citations, then the searches (a chunk of their own).
    const groundingChoices: ChatCompletionChunk['choices'] = [];
    for (const [i, candidate] of (event.candidates ?? []).entries()) {
      const index = candidate.index ?? i;
      const { text, reasoning, toolCalls, details } = convertCandidateParts(
        candidate.content?.parts,
        detailCount.get(index) ?? 0,
      );
      detailCount.set(index, (detailCount.get(index) ?? 0) + details.length);
      const delta: Record<string, unknown> = {};
      if (!started.has(index)) {
        started.add(index);
        delta.role = 'assistant';
      }
      if (reasoning && (text || toolCalls.length > 0)) {
        reasoningFirst.push({ index, delta: { ...delta, reasoning_content: reasoning }, finish_reason: null });
        delete delta.role;
      } else if (reasoning) delta.reasoning_content = reasoning;
      if (text) {
        delta.content = text;
        grounding.addText(index, text);
      }
      if (details.length > 0) delta.reasoning_details = details;
      if (toolCalls.length > 0) {
        const offset = toolCallCount.get(index) ?? 0;
        toolCallCount.set(index, offset + toolCalls.length);
        delta.tool_calls = toolCalls.map((call, k) => ({ index: offset + k, ...call }));
      }
      const cites = grounding.take(index, candidate.groundingMetadata, responseId);
      if (cites) groundingChoices.push({ index, delta: cites, finish_reason: null });
      const finish = candidate.finishReason
        ? mapGeminiFinishReason(candidate.finishReason, (toolCallCount.get(index) ?? 0) > 0)
        : null;
      if (finish) finished.add(index);
      const logprobs = convertGeminiLogprobs(candidate.logprobsResult);
      if (Object.keys(delta).length > 0 || finish)
        choices.push({ index, delta, finish_reason: finish, ...(logprobs ? { logprobs } : {}) });
    }
    if (reasoningFirst.length > 0)
      yield {
        id,
        object: 'chat.completion.chunk',
        created,
        model: event.modelVersion ?? model,
        choices: reasoningFirst,
      };
    // A finish reason waits for the grounding of the same event, so that the choice ends after it.
    const held =
      groundingChoices.length > 0
        ? choices
            .filter((c) => c.finish_reason && groundingChoices.some((g) => g.index === c.index))
            .map((c) => ({ index: c.index, delta: {}, finish_reason: c.finish_reason }))
        : [];
    for (const c of choices) if (held.some((h) => h.index === c.index)) c.finish_reason = null;
    const model_ = event.modelVersion ?? model;
    for (const part of [choices, groundingChoices, held])
      if (part.length > 0) yield { id, object: 'chat.completion.chunk', created, model: model_, choices: part };
  }
  if (finished.size === 0) throw upstreamInvalidResponseError(provider, 'the stream ended before any finishReason.');
  if (usage) yield { id, object: 'chat.completion.chunk', created, model, choices: [], usage: mapGeminiUsage(usage) };
}

/**
 * Gemini `streamGenerateContent?alt=sse` events (each a partial GenerateContentResponse; CRLF framing; no
 * terminator) -> OpenAI `chat.completion.chunk`s as they arrive: per candidate index a role on its first chunk, text
 * deltas, thought summaries as `reasoning_content` deltas (they come before the answer), thought signatures as
 * `reasoning_details` entries (when they arrive), function calls as complete `tool_calls` entries (indexes counted
 * per candidate), `logprobs` when asked; Google Search grounding after the text it cites, in a chunk of its own:
 * `delta.annotations` (`url_citation`s of the candidate's text so far, each once) and `delta.web_search_calls` (the
 * queries not sent yet); the finish reason on its last chunk; then one usage-only chunk from the last
 * (cumulative) `usageMetadata`. A blocked prompt throws 400; an `error` object in the stream, or a bare JSON error
 * body after the events ({@link mapGeminiStreamError}), throws its mapped error; an event that is not JSON or not of
 * the documented shape (`geminiStreamEventSchema`) throws 502 `upstream_invalid_response`; a stream that ends with no
 * finishReason, or breaks, throws 502/504 rather than ending quietly.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export async function* convertGeminiStream(
  events: AsyncIterable<ServerSentEvent>,
  provider: string,
  model: string,
  signal: AbortSignal,
  secrets: readonly (string | undefined)[] = [],
): AsyncGenerator<ChatCompletionChunk> {
  try {
    yield* convertEvents(events, provider, model, secrets);
  } catch (error) {
    if (StrayStreamTextError.isInstance(error)) throw mapGeminiStreamError(provider, error.text, undefined, secrets);
    throw GatewayError.isInstance(error) ? error : mapTransportError(provider, error, signal);
  }
}

/**
 * The GatewayError for an error inside an HTTP 200 stream: a `data:` event holding `{"error":{...}}`, or the bare JSON
 * error body Gemini appends after its events when it fails mid-way (`{"error":{"code":499,"status":"CANCELLED",...}}`).
 * Mapped as {@link mapGeminiError}; the status is the error's `code` when it is an HTTP error status other than 499,
 * else 502. `secrets` are redacted from every field. Text that is not a Google error body -> 502
 * `upstream_invalid_response`.
 */
export function mapGeminiStreamError(
  provider: string,
  text: string,
  code?: number,
  secrets: readonly (string | undefined)[] = [],
): GatewayError {
  const read = googleErrorBodySchema.safeParse(parseJsonOrUndefined(text));
  if (!read.success || read.data.error === undefined)
    return upstreamInvalidResponseError(provider, 'the stream holds text that is not an event.');
  const status = code ?? read.data.error.code;
  return mapGeminiError(
    provider,
    status !== undefined && status >= 400 && status <= 599 && status !== 499 ? status : 502,
    text,
    {},
    secrets,
  );
}
