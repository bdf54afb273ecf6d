import type { ChatCompletion } from '@switchyard/core';
import { convertUsage } from './convert-usage.js';
import { finishResponse } from './finish-response.js';
import { toToolCallItem } from './convert-tool-call-item.js';
import { newId } from './new-id.js';
import type { OutputItem, ResponseObject } from './response-object.js';
import { ToolNameMap } from './responses-tool-names.js';
import { toUrlCitation } from './url-citation-annotation.js';
import { toWebSearchCallItem } from './web-search-call-item.js';

/** A message's `url_citation` annotations, as the Responses annotations of its one `output_text` part. */
function citationsOf(message: ChatCompletion['choices'][number]['message']): unknown[] {
  const length = message.content?.length ?? 0;
  return (message.annotations ?? []).flatMap((a) => toUrlCitation(a, 0, length) ?? []);
}

/**
 * A chat completion -> the finished `response`: the first choice's web searches (`message.web_search_calls`) become
 * `web_search_call` items first (see `toWebSearchCallItem`), its text (and refusal) become one assistant `message`
 * item with `output_text` (its `url_citation` annotations, see `toUrlCitation`) and `refusal` parts, each tool call a `function_call` item (`call_id` = the tool call id),
 * or a `custom_tool_call` for a custom tool, mapped back through `names` (see `toToolCallItem`);
 * usage and status follow. `response` is the in-progress object from `newResponseObject`; it is mutated and returned.
 * @see https://platform.openai.com/docs/api-reference/responses/object
 */
export function convertChatCompletion(
  completion: ChatCompletion,
  response: ResponseObject,
  names: ToolNameMap = new ToolNameMap(),
): ResponseObject {
  const choice = completion.choices[0];
  const output: OutputItem[] = [];
  const message = choice?.message;
  for (const search of message?.web_search_calls ?? []) output.push(toWebSearchCallItem(search));
  if (message?.content || message?.refusal) {
    output.push({
      type: 'message',
      id: newId('msg'),
      status: 'completed',
      role: 'assistant',
      content: [
        ...(message.content
          ? [{ type: 'output_text' as const, text: message.content, annotations: citationsOf(message), logprobs: [] }]
          : []),
        ...(message.refusal ? [{ type: 'refusal' as const, refusal: message.refusal }] : []),
      ],
    });
  }
  for (const call of message?.tool_calls ?? []) {
    output.push(toToolCallItem(call.id, call.function.name, call.function.arguments, names, 'completed'));
  }
  response.output = output;
  const usage = convertUsage(completion.usage);
  if (usage) response.usage = usage;
  return finishResponse(response, choice?.finish_reason);
}
