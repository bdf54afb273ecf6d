/** The SSE line that ends an OpenAI stream: `data: [DONE]` plus the blank line. */
export const SSE_DONE = 'data: [DONE]\n\n';

/** Encodes one SSE `data:` event for a JSON-serialisable value: `data: <json>\n\n`. */
export function encodeSSEData(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}
