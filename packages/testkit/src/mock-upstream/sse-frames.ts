/** How recorded event payloads are framed on the wire; see the fixtures README. */
export type SSEFraming =
  /** `data: <json>\n\n` per event, then `data: [DONE]\n\n` (OpenAI and OpenAI-compatible APIs). */
  | 'openai'
  /** `event: <json.type>\ndata: <json>\n\n` per event, no terminator (Anthropic Messages, Cohere v2). */
  | 'typed'
  /** `data: <json>\r\n\r\n` per event, no terminator (Gemini `?alt=sse`). */
  | 'gemini';

/**
 * Turns event payloads (one JSON text per element, as in the recorded `*.chunks.txt` files) into SSE frames, one
 * string per event, ready for {@link MockReply.chunks}.
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export function sseFrames(payloads: readonly string[], framing: SSEFraming = 'openai'): string[] {
  switch (framing) {
    case 'openai':
      return [...payloads.map((p) => `data: ${p}\n\n`), 'data: [DONE]\n\n'];
    case 'typed':
      return payloads.map((p) => `event: ${(JSON.parse(p) as { type: string }).type}\ndata: ${p}\n\n`);
    case 'gemini':
      return payloads.map((p) => `data: ${p}\r\n\r\n`);
  }
}
