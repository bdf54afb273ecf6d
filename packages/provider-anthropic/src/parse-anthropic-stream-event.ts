import { upstreamInvalidResponseError } from '@switchyard/core';
import { type AnthropicStreamEvent, anthropicStreamEventSchemas } from './anthropic-response-schemas.js';

/**
 * Parses the `data` of one SSE event of a Messages stream into a typed event. Returns undefined for event types this
 * adapter does not read (Anthropic may add new ones). Throws 502 `upstream_invalid_response` when the data is not
 * JSON or a known event lacks a field it must have.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
export function parseAnthropicStreamEvent(data: string, provider: string): AnthropicStreamEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch (error) {
    throw upstreamInvalidResponseError(provider, 'a stream event is not valid JSON.', error);
  }
  const type = (json as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !Object.hasOwn(anthropicStreamEventSchemas, type)) return undefined;
  const parsed = anthropicStreamEventSchemas[type as keyof typeof anthropicStreamEventSchemas].safeParse(json);
  if (!parsed.success)
    throw upstreamInvalidResponseError(
      provider,
      `a '${type}' stream event is malformed (${parsed.error.issues[0]?.message ?? 'invalid'}).`,
      parsed.error,
    );
  return parsed.data as AnthropicStreamEvent;
}
