/**
 * One server-sent event of a streamed response (ResponseStreamEvent): `type` names it (and is also the SSE `event:`
 * field), `sequence_number` counts events from 0.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export interface ResponsesStreamEvent {
  type: string;
  sequence_number: number;
  [field: string]: unknown;
}

/** Encodes one event as SSE text: `event: <type>\ndata: <json>\n\n`, as OpenAI sends it. */
export function encodeResponsesEvent(event: ResponsesStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
