import { createHash } from 'node:crypto';
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  invalidRequestError,
} from '@switchyard/core';
import type { ChatQuirks } from './openai-compatible-preset.js';

const MISTRAL_ID = /^[a-zA-Z0-9]{9}$/;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Mistral accepts only tool-call ids of exactly 9 characters `[a-zA-Z0-9]` (its own ids look like `gSIMJiOkT`); a
 * conversation that carries ids from another provider (`call_abc...`, `toolu_...`) is rejected with 422. Returns the
 * id unchanged when it already fits, else 9 characters derived from its SHA-256, so that an assistant's
 * `tool_calls[].id` and the matching `tool_call_id` map to the same value.
 * @see https://docs.mistral.ai/capabilities/function_calling
 */
export function toMistralToolCallId(id: string): string {
  if (MISTRAL_ID.test(id)) return id;
  const digest = createHash('sha256').update(id).digest();
  let out = '';
  for (let i = 0; i < 9; i++) out += ALPHABET[digest[i]! % ALPHABET.length];
  return out;
}

/**
 * Models that serve one choice only: "Currently mistral-large-2512 does not support N completions" (Mistral's
 * sampling guide); `mistral-large-latest` points at it.
 * @see https://docs.mistral.ai/guides/sampling
 */
export const MISTRAL_SINGLE_CHOICE_MODELS = /^mistral-large-(2512|latest)$/;

type ToolCallLike = { id?: string; type?: string; index?: number; function?: unknown };

function rewriteMessages(request: ChatCompletionRequest): ChatCompletionRequest['messages'] {
  return request.messages.map((message) => {
    if (message.role === 'tool') return { ...message, tool_call_id: toMistralToolCallId(message.tool_call_id) };
    if (message.role === 'assistant' && message.tool_calls?.length) {
      return {
        ...message,
        tool_calls: message.tool_calls.map((call) => ({ ...call, id: toMistralToolCallId(call.id) })),
      };
    }
    return message;
  });
}

/**
 * Mistral's quirks:
 * - tool-call ids in the conversation are rewritten to 9 characters ({@link toMistralToolCallId});
 * - `n` > 1 on {@link MISTRAL_SINGLE_CHOICE_MODELS} is rejected with 400 naming `n`;
 * - tool calls in answers come without `type` and, in streams, complete in one delta without `index`: both are added
 *   (`type: "function"`, `index` by position) so that OpenAI clients can assemble them.
 * @see https://docs.mistral.ai/api/#tag/chat
 */
export const mistralQuirks: ChatQuirks = {
  prepareRequest(request) {
    if ((request.n ?? 1) > 1 && MISTRAL_SINGLE_CHOICE_MODELS.test(request.model)) {
      throw invalidRequestError(
        `Mistral's model '${request.model}' does not support n > 1; send n: 1 or choose another model.`,
        'n',
        'unsupported_parameter',
      );
    }
    return { ...request, messages: rewriteMessages(request) };
  },
  fixCompletion(completion: ChatCompletion) {
    return {
      ...completion,
      choices: completion.choices.map((choice) =>
        choice.message?.tool_calls?.length
          ? {
              ...choice,
              message: {
                ...choice.message,
                tool_calls: choice.message.tool_calls.map((call) => ({ ...call, type: call.type ?? 'function' })),
              },
            }
          : choice,
      ),
    };
  },
  fixChunk(chunk: ChatCompletionChunk) {
    if (!chunk.choices?.some((c) => c.delta?.tool_calls?.length)) return chunk;
    return {
      ...chunk,
      choices: chunk.choices.map((choice) => {
        const calls = choice.delta?.tool_calls as ToolCallLike[] | undefined;
        if (!calls?.length) return choice;
        const fixed = calls.map((call, position) => ({
          ...call,
          index: call.index ?? position,
          ...(call.id ? { type: call.type ?? 'function' } : {}),
        }));
        return { ...choice, delta: { ...choice.delta, tool_calls: fixed } } as typeof choice;
      }),
    };
  },
};
