import { type ChatCompletionMessage, invalidRequestError } from '@switchyard/core';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-types.js';
import { convertFilePart } from './convert-file-part.js';
import { convertImagePart } from './convert-image-part.js';

type Part = { type: string; text?: string; image_url?: { url: string }; file?: Record<string, unknown> };
type Message = ChatCompletionMessage & { content?: unknown; tool_calls?: { id: string; function: { name: string; arguments?: string } }[]; tool_call_id?: string };

/** The text of a string or of the text parts of a content array (other parts are not text). */
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
    if (part.type === 'file' && part.file) return convertFilePart(part.file, `${param}[${i}].file`);
    throw invalidRequestError(`Invalid '${param}[${i}]': content parts of type '${part.type}' are not supported by Anthropic models.`, `${param}[${i}]`, 'unsupported_content');
  });
}

function parseArguments(text: string | undefined, param: string): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw invalidRequestError(`Invalid '${param}': tool call arguments must be a JSON string.`, param, 'invalid_tool_arguments');
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalidRequestError(`Invalid '${param}': Anthropic models need tool call arguments that are a JSON object.`, param, 'invalid_tool_arguments');
  }
  return input as Record<string, unknown>;
}

/**
 * OpenAI messages -> Anthropic `system` + `messages`:
 * - `system` and `developer` messages (wherever they are) are joined, in order and separated by a blank line, into
 *   the top-level `system` text;
 * - user content: text parts -> text blocks, `image_url` parts -> image blocks ({@link convertImagePart}), `file`
 *   parts -> document blocks ({@link convertFilePart});
 * - assistant text -> a text block, its `tool_calls` -> `tool_use` blocks (`{id, name, input}`, `arguments` parsed
 *   from its JSON string);
 * - `tool` messages -> `{type:"tool_result", tool_use_id, content}` blocks in a user turn;
 * - consecutive turns of the same role (several tool results, a tool result then a user message...) are merged into
 *   one, as Anthropic needs alternating roles; text blocks without a non-whitespace character are dropped (Anthropic
 *   refuses them) and a turn left empty disappears.
 * Throws 400 naming the field: unsupported parts (`input_audio`...), tool arguments that are not a JSON object,
 * `function` messages, or no user or assistant content at all (`messages`).
 * @see https://docs.anthropic.com/en/api/messages#body-messages
 */
export function convertToAnthropicMessages(messages: readonly ChatCompletionMessage[]): { system?: string; messages: AnthropicMessage[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: AnthropicContentBlock[]) => {
    const content = blocks.filter((b) => b.type !== 'text' || b.text.trim() !== '');
    if (content.length === 0) return;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...content);
    else out.push({ role, content });
  };
  messages.forEach((message, index) => {
    const param = `messages[${index}]`;
    const m = message as Message;
    switch (m.role) {
      case 'system':
      case 'developer': {
        const text = textOf(m.content);
        if (text.trim() !== '') system.push(text);
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
      case 'tool': {
        const text = textOf(m.content);
        push('user', [{ type: 'tool_result', tool_use_id: m.tool_call_id!, ...(text !== '' ? { content: text } : {}) }]);
        break;
      }
      default:
        throw invalidRequestError(`Invalid '${param}.role': messages with role '${m.role}' are not supported by Anthropic models; use 'tool'.`, `${param}.role`, 'unsupported_parameter');
    }
  });
  if (out.length === 0) {
    throw invalidRequestError("Invalid 'messages': Anthropic models need at least one user or assistant message with content.", 'messages', 'invalid_value');
  }
  return { ...(system.length > 0 ? { system: system.join('\n\n') } : {}), messages: out };
}
