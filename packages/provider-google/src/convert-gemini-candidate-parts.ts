import type { GeminiPart } from './gemini-types.js';
import { encodeToolCallId } from './tool-call-id.js';

/** An OpenAI tool call made from a Gemini `functionCall` part. */
export type ConvertedToolCall = {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
};

/**
 * Splits a candidate's parts into answer text (thought-summary parts left out) and tool calls (`functionCall` ->
 * `{id, type:"function", function:{name, arguments: JSON string}}`, ids generated, Gemini 3 signatures carried).
 */
export function convertCandidateParts(parts: readonly GeminiPart[] | undefined): { text: string; toolCalls: ConvertedToolCall[] } {
  let text = '';
  const toolCalls: ConvertedToolCall[] = [];
  for (const part of parts ?? []) {
    if (part.functionCall) {
      toolCalls.push({
        id: part.functionCall.id ?? encodeToolCallId(part.thoughtSignature),
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (typeof part.text === 'string' && !part.thought) text += part.text;
  }
  return { text, toolCalls };
}
