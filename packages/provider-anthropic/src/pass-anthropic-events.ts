import {
  type CompletionUsage,
  type NativeSSEEvent,
  type ServerSentEvent,
  parseJsonOrUndefined,
  readUpstreamEvent,
} from '@switchyard/core';
import { type AnthropicError, anthropicErrorBodySchema } from './anthropic-error-schema.js';
import { type AnthropicUsage, anthropicUsageCarrierSchema } from './anthropic-response-schemas.js';

/**
 * Anthropic's stream events as they arrived (`event:` name, `data:` text), for the Messages pass-through: nothing is
 * parsed or changed, so thinking blocks, signatures and cache usage reach the client intact. Events without a name
 * take the `type` of their data, as Anthropic always names them. An `error` event (`{"type":"error","error":{type,
 * message}}`) is passed on too, and its `error` handed to `onError` (for booking the call as failed). The usage of
 * `message_start` and `message_delta` events goes to `onUsage` once read through `anthropicUsageCarrierSchema`; an
 * event whose usage is not JSON or not of that shape throws 502 `upstream_invalid_response` naming `provider` (the
 * gateway ends the stream with an error event).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* passAnthropicEvents(
  events: AsyncIterable<ServerSentEvent>,
  onUsage?: (usage: AnthropicUsage) => void,
  onError?: (error: AnthropicError) => void,
  provider = 'anthropic',
): AsyncGenerator<NativeSSEEvent> {
  for await (const event of events) {
    if (onError && event.event === 'error') {
      const read = anthropicErrorBodySchema.safeParse(parseJsonOrUndefined(event.data));
      onError(
        (read.success ? read.data.error : undefined) ?? {
          type: 'api_error',
          message: 'The upstream stream reported an error.',
        },
      );
    }
    if (onUsage && (event.event === 'message_start' || event.event === 'message_delta')) {
      // The usage is metered: read through its schema (a count that is not a token count is a 502, never booked).
      const data = readUpstreamEvent(provider, anthropicUsageCarrierSchema, event.data, `a '${event.event}' event`);
      const found = data.message?.usage ?? data.usage;
      if (found) onUsage(found);
    }
    const name = event.event ?? /"type"\s*:\s*"([^"]+)"/.exec(event.data)?.[1] ?? 'message';
    yield { event: name, data: event.data };
  }
}

/**
 * Anthropic usage (the merged `message_start` and `message_delta` fields) -> chat usage, tokens; cache reads and writes
 * count as prompt tokens and are named in `prompt_tokens_details` (`cached_tokens`, `cache_write_tokens`), so that
 * the ledger prices them at `cached_input` and `cache_write`.
 */
export function anthropicUsageToChat(usage: Record<string, unknown> | undefined): CompletionUsage | undefined {
  if (!usage) return undefined;
  const n = (key: string) => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
  const read = n('cache_read_input_tokens');
  const write = n('cache_creation_input_tokens');
  const prompt = n('input_tokens') + read + write;
  const completion = n('output_tokens');
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: read, cache_write_tokens: write },
  };
}
