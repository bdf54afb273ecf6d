import type { CompletionUsage, NativeSSEEvent, ServerSentEvent } from '@switchyard/core';

/**
 * Anthropic's stream events as they arrived (`event:` name, `data:` text), for the Messages pass-through: nothing is
 * parsed or changed, so thinking blocks, signatures and cache usage reach the client intact. Events without a name
 * take the `type` of their data, as Anthropic always names them.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export async function* passAnthropicEvents(events: AsyncIterable<ServerSentEvent>, onUsage?: (usage: Record<string, number>) => void): AsyncGenerator<NativeSSEEvent> {
  for await (const event of events) {
    if (onUsage && (event.event === 'message_start' || event.event === 'message_delta')) {
      try {
        const data = JSON.parse(event.data) as { message?: { usage?: Record<string, number> }; usage?: Record<string, number> };
        const found = data.message?.usage ?? data.usage;
        if (found) onUsage(found);
      } catch {
        // Not JSON: passed on unchanged.
      }
    }
    const name = event.event ?? (/"type"\s*:\s*"([^"]+)"/.exec(event.data)?.[1] ?? 'message');
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
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: read, cache_write_tokens: write } };
}
