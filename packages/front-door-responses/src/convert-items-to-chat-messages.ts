import {
  type ChatCompletionMessage,
  type ContentPart,
  type GatewayWarning,
  invalidRequestError,
} from '@switchyard/core';
import { HOSTED_TOOL_ITEM_TYPES, type ResponsesContentPart } from './responses-request-schema.js';
import { flattenToolName } from './responses-tool-names.js';

/** An item of a conversation: an input item, or an output item of an earlier response. */
export interface ConversationItem {
  type?: string;
  role?: string;
  content?: string | readonly ResponsesContentPart[] | readonly { type: string; text?: string; refusal?: string }[];
  call_id?: string;
  name?: string;
  namespace?: string | null;
  arguments?: string;
  input?: string;
  tools?: { type: string }[];
  output?: string | readonly ResponsesContentPart[];
}

function toChatPart(
  part: ResponsesContentPart | { type: string; text?: string; refusal?: string },
  param: string,
): ContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: (part as { text: string }).text };
    case 'refusal':
      return { type: 'refusal', refusal: (part as { refusal: string }).refusal };
    case 'input_image': {
      const image = part as {
        image_url?: string | null;
        file_id?: string | null;
        detail?: 'auto' | 'low' | 'high' | null;
      };
      if (!image.image_url)
        throw invalidRequestError(
          "'input_image' needs 'image_url' (an https or data: URL); file ids are not supported by this gateway.",
          `${param}.image_url`,
        );
      return {
        type: 'image_url',
        image_url: { url: image.image_url, ...(image.detail ? { detail: image.detail } : {}) },
      };
    }
    case 'input_file': {
      const file = part as { file_data?: string | null; filename?: string | null };
      if (!file.file_data)
        throw invalidRequestError(
          "'input_file' needs 'file_data'; file ids are not supported by this gateway.",
          `${param}.file_data`,
        );
      return {
        type: 'file',
        file: { file_data: file.file_data, ...(file.filename ? { filename: file.filename } : {}) },
      };
    }
    default:
      throw invalidRequestError(
        `Content parts of type '${part.type}' are not supported.`,
        `${param}.type`,
        'unsupported_value',
      );
  }
}

function textOf(content: string | readonly { type: string; text?: string }[] | undefined): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * Responses items -> chat messages, in order: messages keep their role (`developer` stays `developer`) with
 * `input_text`/`output_text` -> `text` and `input_image` -> `image_url` parts; consecutive `function_call` and
 * `custom_tool_call` items become one assistant message with `tool_calls` (joined to the assistant message just before
 * them; a call in a namespace is named `<namespace>__<name>`, a custom call's raw `input` becomes the arguments
 * `{"input": ...}`, as `convertResponsesTools` declares them); each `function_call_output` and
 * `custom_tool_call_output` becomes a `tool` message; `additional_tools` items give no message (see
 * {@link declaredTools}). Reasoning items (OpenAI's encrypted reasoning) and calls of
 * OpenAI's hosted tools are dropped: no other provider can read them; one warning per dropped item type is pushed to
 * `warnings`. `param` names the request field in errors (`input`). Throws 400 for parts that cannot be translated.
 */
export function convertItemsToChatMessages(
  items: readonly ConversationItem[],
  param = 'input',
  warnings?: GatewayWarning[],
): ChatCompletionMessage[] {
  const messages: ChatCompletionMessage[] = [];
  const dropped = new Set<string>();
  const pushCall = (call: { id: string; type: 'function'; function: { name: string; arguments: string } }) => {
    const last = messages.at(-1);
    if (last?.role === 'assistant') (last.tool_calls ??= []).push(call);
    else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
  };
  items.forEach((item, index) => {
    const type = item.type ?? 'message';
    const at = `${param}[${index}]`;
    if (type === 'message') {
      const role = item.role as 'user' | 'assistant' | 'system' | 'developer';
      const content = item.content ?? '';
      if (role === 'assistant') {
        const parts = typeof content === 'string' ? [{ type: 'output_text', text: content }] : content;
        const text = parts
          .filter((p) => p.type === 'output_text')
          .map((p) => (p as { text: string }).text)
          .join('');
        const refusal = parts
          .filter((p) => p.type === 'refusal')
          .map((p) => (p as { refusal: string }).refusal)
          .join('');
        messages.push({ role: 'assistant', content: text === '' ? null : text, ...(refusal ? { refusal } : {}) });
        return;
      }
      if (role === 'system' || role === 'developer') {
        messages.push({ role, content: textOf(content) });
        return;
      }
      const parts = typeof content === 'string' ? content : content.map((p, i) => toChatPart(p, `${at}.content[${i}]`));
      messages.push({ role: 'user', content: parts });
      return;
    }
    if (type === 'function_call' || type === 'custom_tool_call') {
      const name = flattenToolName(item.name!, item.namespace);
      const args = type === 'custom_tool_call' ? JSON.stringify({ input: item.input ?? '' }) : (item.arguments ?? '');
      pushCall({ id: item.call_id!, type: 'function', function: { name, arguments: args } });
      return;
    }
    if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id!, content: textOf(item.output) });
      return;
    }
    // Declared tools, not a message: `declaredTools` collects them for the request's tools.
    if (type === 'additional_tools') return;
    if (type === 'reasoning' || HOSTED_TOOL_ITEM_TYPES.has(type)) {
      dropped.add(type);
      return;
    }
    throw invalidRequestError(
      `Input items of type '${type}' are not supported by this gateway.`,
      at,
      'unsupported_value',
    );
  });
  for (const type of dropped) {
    warnings?.push({
      code: 'dropped_input_item',
      param,
      message: `'${type}' items were dropped: only OpenAI can read them`,
    });
  }
  return messages;
}

/**
 * The tools that `additional_tools` items of a conversation declare, in order (Codex's newer models declare their
 * tools this way instead of in `tools`); translation adds them after the request's `tools`.
 */
export function declaredTools(items: readonly ConversationItem[]): { type: string }[] {
  return items.flatMap((item) => (item.type === 'additional_tools' && Array.isArray(item.tools) ? item.tools : []));
}
