import { type ChatCompletionMessage, invalidRequestError } from '@switchyard/core';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-types.js';
import { convertImagePart } from './convert-image-part.js';

type Part = { type: string; text?: string; image_url?: { url: string }; refusal?: string };

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as Part[]).map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join('');
}

function userBlocks(content: unknown, param: string): AnthropicContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return (content as Part[]).map((part, i): AnthropicContentBlock => {
    if (part.type === 'text') return { type: 'text', text: part.text ?? '' };
    if (part.type === 'image_url' && part.image_url) return convertImagePart(part.image_url.url, `${param}[${i}].image_url.url`);
    throw invalidRequestError(`Content parts of type '${part.type}' are not supported by Anthropic models.`, `${param}[${i}]`, 'unsupported_content');
  });
}

function parseArguments(text: string | undefined, param: string): unknown {
  if (text === undefined || text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequestError('Tool call arguments must be a JSON string.', param, 'invalid_tool_arguments');
  }
}

/**
 * OpenAI messages -> Anthropic `system` + `messages`:
 * - `system` and `developer` messages (anywhere) are joined, in order, into the top-level `system` text;
 * - user content (text and `image_url` parts) becomes text and image blocks;
 * - assistant text becomes a text block and its `tool_calls` `tool_use` blocks (`arguments` parsed from JSON);
 * - `tool` messages become `tool_result` blocks in a user turn;
 * - consecutive turns of the same role are merged into one, as Anthropic requires, and empty text blocks dropped.
 * Throws 400 naming the field for unsupported parts, bad tool arguments or `function` messages.
 * @see https://docs.anthropic.com/en/api/messages#body-messages
 */
export function convertToAnthropicMessages(messages: readonly ChatCompletionMessage[]): { system?: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: AnthropicContentBlock[]) => {
    const content = blocks.filter((b) => b.type !== 'text' || b.text !== '');
    if (content.length === 0) return;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...content);
    else out.push({ role, content });
  };
  messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    const m = message as ChatCompletionMessage & { content?: unknown; tool_calls?: { id: string; function: { name: string; arguments?: string } }[]; tool_call_id?: string };
    switch (m.role) {
      case 'system':
      case 'developer': {
        const text = textOf(m.content);
        if (text) system.push(text);
        break;
      }
      case 'user':
        push('user', userBlocks(m.content, `${param}.content`));
        break;
      case 'assistant': {
        const blocks: AnthropicContentBlock[] = [{ type: 'text', text: textOf(m.content) }];
        for (const [j, call] of (m.tool_calls ?? []).entries()) {
          blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseArguments(call.function.arguments, `${param}.tool_calls[${j}].function.arguments`) });
        }
        push('assistant', blocks);
        break;
      }
      case 'tool':
        push('user', [{ type: 'tool_result', tool_use_id: m.tool_call_id!, content: textOf(m.content) }]);
        break;
      default:
        throw invalidRequestError(`Messages with role '${m.role}' are not supported by Anthropic models; use 'tool'.`, `${param}.role`);
    }
  });
  return { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages: out };
}
