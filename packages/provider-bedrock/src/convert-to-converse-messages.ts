import { type ChatCompletionMessage, invalidRequestError, type ReasoningDetail } from '@switchyard/core';
import { bedrockReasoningBlocks } from './bedrock-reasoning.js';
import type { ConverseContentBlock, ConverseMessage } from './bedrock-types.js';
import { convertImageUrl } from './convert-image-url.js';

type Part = { type: string; text?: string; image_url?: { url: string }; refusal?: string };

function textOf(content: string | readonly Part[] | null | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((p) => p.text ?? p.refusal ?? '').join('');
}

function convertUserContent(content: string | readonly Part[], param: string): ConverseContentBlock[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part, j): ConverseContentBlock => {
    if (part.type === 'text') return { text: part.text ?? '' };
    if (part.type === 'image_url') return convertImageUrl(part.image_url?.url ?? '', `${param}[${j}].image_url.url`);
    throw invalidRequestError(
      `Invalid '${param}[${j}]': Bedrock's Converse API does not take '${part.type}' content parts here.`,
      `${param}[${j}].type`,
      'unsupported_content_type',
    );
  });
}

function parseArguments(text: string, param: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequestError(
      `Invalid '${param}': the tool call arguments are not valid JSON.`,
      param,
      'invalid_value',
    );
  }
}

/**
 * OpenAI `messages` -> Converse `system` + `messages`:
 * - `system` / `developer` messages -> `system: [{text}]` (in order, wherever they appear);
 * - `user` -> a user turn of `{text}` and `{image}` blocks (images as data URLs, see `convertImageUrl`);
 * - `assistant` -> an assistant turn: its `reasoning_details` (this adapter's format) as the reasoning blocks that
 *   open it, its text, then `tool_calls` as `{toolUse:{toolUseId, name, input}}` (arguments
 *   parsed; invalid JSON is a 400 naming the field);
 * - `tool` -> `{toolResult:{toolUseId, content:[{text}]}}` in a user turn;
 * - consecutive turns of the same role are merged into one (Converse requires alternating roles, so several tool
 *   results form one user turn).
 * Throws 400 GatewayErrors naming the offending field (`messages[i]...`); legacy `function` messages are refused.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Message.html
 */
export function convertToConverseMessages(messages: readonly ChatCompletionMessage[]): {
  system: { text: string }[];
  messages: ConverseMessage[];
} {
  const system: { text: string }[] = [];
  const out: ConverseMessage[] = [];
  const push = (role: 'user' | 'assistant', content: ConverseContentBlock[]) => {
    if (content.length === 0) return;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...content);
    else out.push({ role, content });
  };
  messages.forEach((message, i) => {
    const param = `messages[${i}]`;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message.content as string | Part[]);
        if (text) system.push({ text });
        return;
      }
      case 'user':
        push('user', convertUserContent(message.content as string | Part[], `${param}.content`));
        return;
      case 'assistant': {
        const blocks: ConverseContentBlock[] = bedrockReasoningBlocks(
          (message as { reasoning_details?: ReasoningDetail[] | null }).reasoning_details,
        );
        const text = textOf(message.content as string | Part[] | null | undefined);
        if (text) blocks.push({ text });
        (message.tool_calls ?? []).forEach((call, k) => {
          blocks.push({
            toolUse: {
              toolUseId: call.id,
              name: call.function.name,
              input: parseArguments(call.function.arguments, `${param}.tool_calls[${k}].function.arguments`),
            },
          });
        });
        push('assistant', blocks);
        return;
      }
      case 'tool':
        push('user', [
          {
            toolResult: {
              toolUseId: message.tool_call_id,
              content: [{ text: textOf(message.content as string | Part[]) }],
            },
          },
        ]);
        return;
      default:
        throw invalidRequestError(
          `Invalid '${param}.role': legacy 'function' messages are not translated for Bedrock; use tools.`,
          `${param}.role`,
          'unsupported_value',
        );
    }
  });
  return { system, messages: out };
}
