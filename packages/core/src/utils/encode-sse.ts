import { toJsonText } from './raw-json-text.js';

/** The SSE line that ends an OpenAI stream: `data: [DONE]` plus the blank line. */
export const SSE_DONE = 'data: [DONE]\n\n';

/**
 * Encodes one SSE `data:` event for a JSON-serialisable value: `data: <json>\n\n`, with the upstream's own JSON text
 * when the value is an unchanged upstream object (see `rememberJsonText`).
 */
export function encodeSSEData(value: unknown): string {
  return `data: ${toJsonText(value)}\n\n`;
}
