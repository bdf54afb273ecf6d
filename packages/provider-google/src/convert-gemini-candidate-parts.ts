import { GOOGLE_REASONING_FORMAT, type ReasoningDetail } from '@switchyard/core';
import type { GeminiResponsePart } from './gemini-types.js';
import { encodeToolCallId } from './tool-call-id.js';

/** An OpenAI tool call made from a Gemini `functionCall` part. */
export type ConvertedToolCall = {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
};

/** What a candidate's parts (or a stream event's share of them) hold, in OpenAI terms. */
export interface ConvertedParts {
  /** Answer text (thought parts left out). */
  text: string;
  /** Thought-summary text (`thought: true` parts), for `reasoning_content`. */
  reasoning: string;
  toolCalls: ConvertedToolCall[];
  /** One `reasoning.encrypted` entry per `thoughtSignature` (`id`: the tool call it came with), for `reasoning_details`. */
  details: ReasoningDetail[];
}

/**
 * Splits a candidate's parts into answer text, thought-summary text (`thought: true`), tool calls (`functionCall` ->
 * `{id, type:"function", function:{name, arguments: JSON string}}`, ids generated and carrying the Gemini 3
 * signature) and reasoning details: every `thoughtSignature` becomes
 * `{type:"reasoning.encrypted", data: <signature>, format:"google-gemini-v1", index, id?}` (`id` = the tool call id
 * when it came on a function call part). `firstIndex` numbers the entries (a stream counts on from earlier events).
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
export function convertCandidateParts(
  parts: readonly GeminiResponsePart[] | undefined,
  firstIndex = 0,
): ConvertedParts {
  const out: ConvertedParts = { text: '', reasoning: '', toolCalls: [], details: [] };
  for (const part of parts ?? []) {
    let callId: string | undefined;
    if (part.functionCall) {
      callId = part.functionCall.id ?? encodeToolCallId(part.thoughtSignature);
      out.toolCalls.push({
        id: callId,
        type: 'function',
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      });
    } else if (typeof part.text === 'string') {
      if (part.thought) out.reasoning += part.text;
      else out.text += part.text;
    }
    if (part.thoughtSignature) {
      out.details.push({
        type: 'reasoning.encrypted',
        data: part.thoughtSignature,
        format: GOOGLE_REASONING_FORMAT,
        index: firstIndex + out.details.length,
        ...(callId ? { id: callId } : {}),
      });
    }
  }
  return out;
}
