import { mapTransportError } from './upstream-request.js';

/**
 * Passes an upstream body through as it arrives (speech audio), one network read per yielded `Uint8Array`, never
 * buffered whole. A connection that breaks mid-way throws 502 (504 when it stalls) instead of undici's socket error;
 * a consumer that stops early destroys the upstream body, which closes the upstream request.
 * @see https://platform.openai.com/docs/api-reference/audio/createSpeech
 */
export async function* pipeUpstreamBytes(
  provider: string,
  body: AsyncIterable<Uint8Array> & { destroy?: (error?: Error) => void },
  signal: AbortSignal,
): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    for await (const bytes of body) yield bytes;
    finished = true;
  } catch (error) {
    throw mapTransportError(provider, error, signal);
  } finally {
    if (!finished) body.destroy?.();
  }
}
