/** Encodes one Anthropic stream event as SSE text: `event: <type>\ndata: <json>\n\n`. */
export function encodeAnthropicEvent(data: { type: string }): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}
