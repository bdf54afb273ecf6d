import type { ModelCapability } from '../adapter/model-capability.js';
import type { ChatCompletionRequest } from '../schemas/chat-completion-request.js';

/** A capability a request needs and the request field that needs it (the `param` of the 400 when none has it). */
export interface RequiredCapability {
  capability: ModelCapability;
  param: string;
}

/**
 * The capabilities a chat request needs (see {@link ModelCapability}), each with the field that needs it; empty for
 * a plain text request. Follows https://platform.openai.com/docs/api-reference/chat/create.
 */
export function requiredCapabilities(request: ChatCompletionRequest): RequiredCapability[] {
  const needs: RequiredCapability[] = [];
  if (request.tools && request.tools.length > 0) needs.push({ capability: 'tools', param: 'tools' });
  let image = -1;
  let audio = -1;
  for (const [index, message] of request.messages.entries()) {
    const content = (message as { content?: unknown }).content;
    if (!Array.isArray(content)) continue;
    for (const part of content) {
      const type = (part as { type?: unknown } | null)?.type;
      if (type === 'image_url' && image < 0) image = index;
      if (type === 'input_audio' && audio < 0) audio = index;
    }
  }
  if (image >= 0) needs.push({ capability: 'vision', param: `messages[${image}].content` });
  if (request.response_format?.type === 'json_schema')
    needs.push({ capability: 'json_schema', param: 'response_format' });
  const loose = request as { modalities?: unknown; audio?: unknown };
  if (audio >= 0) needs.push({ capability: 'audio', param: `messages[${audio}].content` });
  else if (Array.isArray(loose.modalities) && loose.modalities.includes('audio'))
    needs.push({ capability: 'audio', param: 'modalities' });
  else if (loose.audio != null) needs.push({ capability: 'audio', param: 'audio' });
  if (request.reasoning_effort != null) needs.push({ capability: 'reasoning', param: 'reasoning_effort' });
  return needs;
}
