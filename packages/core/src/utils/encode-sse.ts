import { jsonTextOf } from './raw-json-text.js';

/** The SSE line that ends an OpenAI stream: `data: [DONE]` plus the blank line. */
export const SSE_DONE = 'data: [DONE]\n\n';

/**
 * Encodes one SSE `data:` event for a JSON-serialisable value: `data: <json>\n\n`, with the upstream's own JSON text
 * when the value is an unchanged upstream object (see `rememberJsonText`) and that text is on one line.
 */
export function encodeSSEData(value: unknown): string {
  const text = jsonTextOf(value);
  if (text !== undefined && text.indexOf('\n') === -1 && text.indexOf('\r') === -1) return `data: ${text}\n\n`;
  return `data: ${JSON.stringify(value)}\n\n`;
}
