import { GatewayError } from '../errors/gateway-error.js';
import { redactGatewayError } from '../errors/redact-gateway-error.js';
import type { ChatCompletionChunk } from '../schemas/chat-completion-chunk.js';
import { SSE_DONE, encodeSSEData } from '../utils/encode-sse.js';

/**
 * Turns a stream of chunks (chat's, or any JSON objects such as legacy `text_completion` chunks) into `text/event-stream` text: one `data: <chunk JSON>\n\n` per chunk as it comes,
 * then `data: [DONE]\n\n`. If the chunk stream fails, one `data: {"error":{message,type,param,code}}` event is
 * sent instead of `[DONE]` and the stream ends, so a broken stream never looks like a finished one.
 * `onError` sees the failure (for logging); `secrets` are redacted from every field of the error event. Stopping the
 * iteration early closes the source stream.
 */
export async function* toSSEStream(
  chunks: AsyncIterable<ChatCompletionChunk | object>,
  onError?: (error: unknown) => void,
  secrets: readonly string[] = [],
): AsyncGenerator<string> {
  try {
    for await (const chunk of chunks) yield encodeSSEData(chunk);
  } catch (error) {
    onError?.(error);
    yield encodeSSEError(error, secrets);
    return;
  }
  yield SSE_DONE;
}

/**
 * The error event that ends a failed stream: `data: {"error":{message,type,param,code}}\n\n` for a GatewayError
 * (`secrets` redacted from every field), else a generic 500-type `upstream_stream_error` that reveals nothing.
 */
export function encodeSSEError(error: unknown, secrets: readonly string[] = []): string {
  const body = GatewayError.isInstance(error)
    ? redactGatewayError(error, secrets).toJSON()
    : {
        error: {
          message: 'The upstream stream failed.',
          type: 'server_error',
          param: null,
          code: 'upstream_stream_error',
        },
      };
  return encodeSSEData(body);
}
