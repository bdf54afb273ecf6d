import {
  type GatewayError,
  type NativeMessagesResult,
  type ServerSentEvent,
  readUpstreamJson,
  type sendUpstreamRequest,
} from '@switchyard/core';
import { z } from 'zod';
import { type AnthropicUsage, anthropicUsageSchema } from './anthropic-response-schemas.js';
import { mapAnthropicStreamError } from './map-anthropic-error.js';
import { anthropicUsageToChat, passAnthropicEvents } from './pass-anthropic-events.js';

type UpstreamResponse = Awaited<ReturnType<typeof sendUpstreamRequest>>;

/**
 * What the pass-through reads of a whole Messages answer: an object, and its `usage` (metered, so its counts must be
 * token counts: `anthropicUsageSchema`); everything else is passed on unread.
 * @see https://docs.anthropic.com/en/api/messages#response
 */
export const anthropicPassThroughAnswerSchema = z.looseObject({ usage: anthropicUsageSchema.nullish() });

/**
 * The `POST /v1/messages/count_tokens` answer: `{"input_tokens": N}` (tokens).
 * @see https://docs.anthropic.com/en/api/messages-count-tokens
 */
export const anthropicCountTokensSchema = z.looseObject({ input_tokens: z.number().int().min(0) });

/**
 * Anthropic's stream events (from Anthropic, Vertex's `streamRawPredict` or decoded Bedrock chunks) as a pass-through
 * result: every event passed on unchanged and in order, usage read from `message_start` and `message_delta` for
 * metering, an `error` event booked as that failure (mapped by `mapAnthropicStreamError`, `secrets` redacted).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function anthropicEventsResult(
  provider: string,
  events: AsyncIterable<ServerSentEvent>,
  secrets: readonly (string | undefined)[],
): NativeMessagesResult {
  let usage: AnthropicUsage | undefined;
  let failure: GatewayError | undefined;
  const passed = passAnthropicEvents(
    events,
    (found) => (usage = { ...usage, ...found }),
    (error) => (failure ??= mapAnthropicStreamError(provider, error, secrets)),
    provider,
  );
  return { events: passed, usage: () => anthropicUsageToChat(usage), error: () => failure };
}

/**
 * A whole Messages answer as a pass-through result: the JSON as the upstream sent it, its usage for metering. Throws
 * 502 `upstream_invalid_response` when the body is not a JSON object.
 */
export async function anthropicJsonResult(
  provider: string,
  response: UpstreamResponse,
  signal: AbortSignal,
): Promise<NativeMessagesResult> {
  const json = await readUpstreamJson(provider, response, signal, anthropicPassThroughAnswerSchema);
  return { json, usage: anthropicUsageToChat(json.usage ?? undefined) };
}

/** Reads a count_tokens answer; throws 502 `upstream_invalid_response` when it has no `input_tokens`. */
export async function readAnthropicCountTokens(
  provider: string,
  response: UpstreamResponse,
  signal: AbortSignal,
): Promise<{ input_tokens: number }> {
  const json = await readUpstreamJson(provider, response, signal, anthropicCountTokensSchema);
  return { input_tokens: json.input_tokens };
}
