import {
  ANTHROPIC_REASONING_FORMAT,
  type ChatCompletionMessage,
  invalidRequestError,
  type ReasoningDetail,
} from '@switchyard/core';
import type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicMessagesRequest,
} from './anthropic-types.js';
import { convertFilePart } from './convert-file-part.js';
import { convertImagePart } from './convert-image-part.js';

type Part = {
  type: string;
  text?: string;
  image_url?: { url: string };
  file?: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
};
type Message = ChatCompletionMessage & {
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments?: string } }[];
  tool_call_id?: string;
  reasoning_details?: ReasoningDetail[] | null;
};

/** Copies a part's `cache_control` (a prompt-caching breakpoint) onto the block made from it. */
function withCache<T extends AnthropicContentBlock>(block: T, part: Part): T {
  return part.cache_control ? { ...block, cache_control: part.cache_control } : block;
}

/** True when some part of a string-or-parts content carries `cache_control`. */
function hasCacheControl(content: unknown): boolean {
  return Array.isArray(content) && (content as Part[]).some((p) => p.cache_control != null);
}

/**
 * The thinking blocks of an earlier Claude answer, from the `reasoning_details` the client sent back: `reasoning.text`
 * entries with a signature -> `thinking` blocks, `reasoning.encrypted` -> `redacted_thinking`; entries of other
 * formats (another provider's) and unsigned text are skipped (Anthropic refuses thinking without its signature).
 */
function thinkingBlocks(details: readonly ReasoningDetail[] | null | undefined): AnthropicContentBlock[] {
  const blocks: AnthropicContentBlock[] = [];
  for (const detail of details ?? []) {
    if (detail.format !== undefined && detail.format !== ANTHROPIC_REASONING_FORMAT) continue;
    if (detail.type === 'reasoning.text' && typeof detail.signature === 'string' && detail.signature !== '') {
      blocks.push({ type: 'thinking', thinking: detail.text ?? '', signature: detail.signature });
    } else if (detail.type === 'reasoning.encrypted' && typeof detail.data === 'string')
      blocks.push({ type: 'redacted_thinking', data: detail.data });
  }
  return blocks;
}

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
    if (part.type === 'text') return withCache({ type: 'text', text: part.text ?? '' }, part);
    if (part.type === 'image_url' && part.image_url)
      return withCache(convertImagePart(part.image_url.url, `${param}[${i}].image_url.url`), part);
    if (part.type === 'file' && part.file) return withCache(convertFilePart(part.file, `${param}[${i}].file`), part);
    throw invalidRequestError(
      `Invalid '${param}[${i}]': content parts of type '${part.type}' are not supported by Anthropic models.`,
      `${param}[${i}]`,
      'unsupported_content',
    );
  });
}

function parseArguments(text: string | undefined, param: string): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw invalidRequestError(
      `Invalid '${param}': tool call arguments must be a JSON string.`,
      param,
      'invalid_tool_arguments',
    );
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw invalidRequestError(
      `Invalid '${param}': Anthropic models need tool call arguments that are a JSON object.`,
      param,
      'invalid_tool_arguments',
    );
  }
  return input as Record<string, unknown>;
}

/**
 * OpenAI messages -> Anthropic `system` + `messages`:
 * - `system` and `developer` messages (wherever they are) are joined, in order and separated by a blank line, into
 *   the top-level `system` text;
 * - user content: text parts -> text blocks, `image_url` parts -> image blocks ({@link convertImagePart}), `file`
 *   parts -> document blocks ({@link convertFilePart});
 * - `cache_control` on a text, image or file part (of user, system or tool messages) is kept on its block (with it,
 *   `system` becomes text blocks);
 * - an assistant message's `reasoning_details` (Anthropic format) -> its `thinking` / `redacted_thinking` blocks first,
 *   unchanged, so that a tool-use turn with thinking is accepted;
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
export function convertToAnthropicMessages(messages: readonly ChatCompletionMessage[]): {
  system?: AnthropicMessagesRequest['system'];
  messages: AnthropicMessage[];
} {
  const system: { type: 'text'; text: string; cache_control?: AnthropicCacheControl }[] = [];
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
        if (hasCacheControl(m.content)) {
          for (const part of m.content as Part[])
            if (part.type === 'text' && part.text?.trim())
              system.push(withCache({ type: 'text', text: part.text }, part));
        } else {
          const text = textOf(m.content);
          if (text.trim() !== '') system.push({ type: 'text', text });
        }
        break;
      }
      case 'user':
        push('user', userBlocks(m.content, `${param}.content`));
        break;
      case 'assistant': {
        const blocks: AnthropicContentBlock[] = [
          ...thinkingBlocks(m.reasoning_details),
          { type: 'text', text: textOf(m.content) },
        ];
        for (const [j, call] of (m.tool_calls ?? []).entries()) {
          blocks.push({
            type: 'tool_use',
            id: call.id,
            name: call.function.name,
            input: parseArguments(call.function.arguments, `${param}.tool_calls[${j}].function.arguments`),
          });
        }
        push('assistant', blocks);
        break;
      }
      case 'tool': {
        if (hasCacheControl(m.content)) {
          const content = (m.content as Part[])
            .filter((p) => p.type === 'text')
            .map((p) => withCache({ type: 'text' as const, text: p.text ?? '' }, p));
          push('user', [{ type: 'tool_result', tool_use_id: m.tool_call_id!, content }]);
          break;
        }
        const text = textOf(m.content);
        push('user', [
          { type: 'tool_result', tool_use_id: m.tool_call_id!, ...(text !== '' ? { content: text } : {}) },
        ]);
        break;
      }
      default:
        throw invalidRequestError(
          `Invalid '${param}.role': messages with role '${m.role}' are not supported by Anthropic models; use 'tool'.`,
          `${param}.role`,
          'unsupported_parameter',
        );
    }
  });
  if (out.length === 0) {
    throw invalidRequestError(
      "Invalid 'messages': Anthropic models need at least one user or assistant message with content.",
      'messages',
      'invalid_value',
    );
  }
  if (system.length === 0) return { messages: out };
  // Plain text unless a part asked for a cache breakpoint, which needs system text blocks.
  const cached = system.some((b) => b.cache_control);
  return { system: cached ? system : system.map((b) => b.text).join('\n\n'), messages: out };
}
