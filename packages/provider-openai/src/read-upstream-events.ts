import {
  type ServerSentEvent,
  type sendUpstreamRequest,
  GatewayError,
  describeIssue,
  mapTransportError,
  parseSSEStream,
  upstreamInvalidResponseError,
} from '@switchyard/core';
import type { z } from 'zod';
import { parseEventData } from './read-chunk-event.js';

/**
 * The events of an OpenAI-style stream other than chat's (legacy `text_completion` chunks, `image_edit.*` events), each
 * checked with `schema` and yielded as it arrives, until `data: [DONE]` or the end of the body. `accept` picks the
 * events that belong to the stream by their name and parsed data (others, e.g. `event: ping` or Azure's
 * `prompt_filter_results` preamble with `object: ""`, are skipped). A `{"error":{...}}` event throws the
 * upstream's error (502, its fields redacted of `secrets`); bad JSON or an event of the wrong shape throws 502
 * `upstream_invalid_response` naming `what`; a broken connection 502/504; an answer that is not `text/event-stream`
 * 502 `upstream_invalid_response`. Closing the iterator early destroys the upstream body.
 * @see https://platform.openai.com/docs/api-reference/completions/create#completions-create-stream
 */
export async function* readUpstreamEvents<T>(
  provider: string,
  response: Awaited<ReturnType<typeof sendUpstreamRequest>>,
  signal: AbortSignal,
  secrets: readonly (string | undefined)[],
  schema: z.ZodType<T>,
  what: string,
  accept: (event: ServerSentEvent, parsed: unknown) => boolean = (event) =>
    event.event === undefined || event.event === 'message',
): AsyncGenerator<T> {
  const contentType = String(response.headers['content-type'] ?? '');
  if (!contentType.startsWith('text/event-stream')) {
    await response.body.dump().catch(() => {});
    throw upstreamInvalidResponseError(
      provider,
      `a stream was asked for but it sent '${contentType || 'no content type'}'.`,
    );
  }
  let finished = false;
  try {
    for await (const event of parseSSEStream(response.body, { provider })) {
      if (event.data === '[DONE]') {
        finished = true;
        return;
      }
      if (event.data.trim() === '') continue;
      const parsed = parseEventData(provider, event.data, secrets);
      if (event.event !== 'error' && !accept(event, parsed)) continue;
      const checked = schema.safeParse(parsed);
      if (!checked.success)
        throw upstreamInvalidResponseError(
          provider,
          `a stream event is not ${what} (${describeIssue(checked.error)}).`,
        );
      yield checked.data;
    }
    finished = true;
  } catch (error) {
    if (GatewayError.isInstance(error)) throw error;
    throw mapTransportError(provider, error, signal);
  } finally {
    if (!finished) response.body.destroy();
  }
}
