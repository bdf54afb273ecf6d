import type { MessagesRequest } from './messages-request-schema.js';

/**
 * The text a Messages request puts in front of the model (system, every text block, tool inputs and results, tool
 * names, descriptions and schemas), for estimating its tokens (`/v1/messages/count_tokens`). Images are not counted.
 */
export function promptText(request: Pick<MessagesRequest, 'system' | 'messages' | 'tools'>): string {
  const parts: string[] = [];
  if (typeof request.system === 'string') parts.push(request.system);
  else for (const block of request.system ?? []) parts.push(block.text);
  for (const message of request.messages) {
    if (typeof message.content === 'string') parts.push(message.content);
    else
      for (const block of message.content) {
        if (block.type === 'text') parts.push(block.text);
        else if (block.type === 'tool_use') parts.push(block.name, JSON.stringify(block.input ?? {}));
        else if (block.type === 'tool_result')
          parts.push(typeof block.content === 'string' ? block.content : JSON.stringify(block.content ?? ''));
      }
  }
  for (const tool of request.tools ?? [])
    parts.push(tool.name, tool.description ?? '', JSON.stringify(tool.input_schema ?? {}));
  return parts.join('\n');
}
