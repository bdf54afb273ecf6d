import { mapTransportError, type sendUpstreamRequest } from '@switchyard/core';

/** An upstream response as `sendUpstreamRequest` resolves it (undici's `Dispatcher.ResponseData`). */
type UpstreamResponse = Awaited<ReturnType<typeof sendUpstreamRequest>>;

/**
 * Reads a whole upstream body as text (a transcription in `text`, `srt` or `vtt` format: a few kB).
 * Throws 502 when the connection breaks, 504 when the body stalls past the idle timeout, the abort reason when
 * `signal` aborts.
 */
export async function readUpstreamText(provider: string, response: UpstreamResponse, signal: AbortSignal): Promise<string> {
  try {
    return await response.body.text();
  } catch (error) {
    throw mapTransportError(provider, error, signal);
  }
}
