import type { ChatCompletionChunk, CompletionUsage, FinishReason } from '@switchyard/core';
import { convertUsage } from './convert-usage.js';
import { finishResponse } from './finish-response.js';
import { toResponseError } from './map-response-error-code.js';
import { customInputOf, toToolCallItem } from './convert-tool-call-item.js';
import { CustomInputStream } from './custom-input-stream.js';
import { newId } from './new-id.js';
import type {
  CustomToolCallItem,
  FunctionCallItem,
  OutputMessageItem,
  OutputTextPart,
  ResponseObject,
} from './response-object.js';
import type { ResponsesStreamEvent } from './responses-stream-event.js';
import { ToolNameMap } from './responses-tool-names.js';
import { toUrlCitation } from './url-citation-annotation.js';
import { toWebSearchCallItem } from './web-search-call-item.js';

type Event = Omit<ResponsesStreamEvent, 'sequence_number'>;
const clone = <T>(value: T): T => structuredClone(value);

/**
 * Chat chunks -> the Responses event sequence OpenAI sends: `response.created`, `response.in_progress`, then per
 * output item `response.output_item.added`; for text `response.content_part.added`, `response.output_text.delta`…,
 * `response.output_text.done`, `response.content_part.done` (a `url_citation` in `delta.annotations` of the open message's
 * text -> `response.output_text.annotation.added`, indexes shifted to the message's own text); for tool calls `response.function_call_arguments.delta`…
 * and `.done` (a custom tool's `response.custom_tool_call_input.delta`… as its argument fragments arrive, decoded by
 * `CustomInputStream`, and `.done` with the whole input); for a web search the upstream ran (`delta.web_search_calls`) `response.web_search_call.in_progress`,
 * `.searching` and `.completed`; `response.output_item.done`; and finally `response.completed` (or `response.incomplete` when cut by
 * length or a content filter). Each event has a `sequence_number` from 0. When the chunk stream fails, an `error`
 * event and `response.failed` end the stream instead (it never throws). `onDone` gets the final response object.
 * @see https://platform.openai.com/docs/api-reference/responses-streaming
 */
export async function* convertChatStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  response: ResponseObject,
  onDone?: (response: ResponseObject) => void | Promise<void>,
  names: ToolNameMap = new ToolNameMap(),
): AsyncGenerator<ResponsesStreamEvent> {
  let sequence = 0;
  const event = (e: Event): ResponsesStreamEvent => ({ ...e, sequence_number: sequence++ }) as ResponsesStreamEvent;
  yield event({ type: 'response.created', response: clone(response) });
  yield event({ type: 'response.in_progress', response: clone(response) });

  /** The open message; `start` is where its text starts in the chat content (annotation indexes count from there). */
  let message: { item: OutputMessageItem; index: number; part: OutputTextPart; start: number } | undefined;
  /** Length of the chat content so far (UTF-16 code units). */
  let contentLength = 0;
  /** Open tool calls by chat index; `args` collects the JSON arguments, `input` decodes a custom tool's as they arrive. */
  const calls = new Map<
    number,
    { item: FunctionCallItem | CustomToolCallItem; index: number; args: string; input: CustomInputStream }
  >();
  let finishReason: FinishReason | null | undefined;
  let usage: Partial<CompletionUsage> | undefined;

  function* closeMessage(): Generator<ResponsesStreamEvent> {
    if (!message) return;
    const { item, index, part } = message;
    yield event({
      type: 'response.output_text.done',
      item_id: item.id,
      output_index: index,
      content_index: 0,
      text: part.text,
      logprobs: [],
    });
    yield event({
      type: 'response.content_part.done',
      item_id: item.id,
      output_index: index,
      content_index: 0,
      part: clone(part),
    });
    item.status = 'completed';
    item.content = [part];
    yield event({ type: 'response.output_item.done', output_index: index, item: clone(item) });
    message = undefined;
  }

  try {
    for await (const chunk of chunks) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices.find((c) => c.index === 0);
      if (!choice) continue;
      const { delta } = choice;
      if (delta.content) {
        if (!message) {
          const item: OutputMessageItem = {
            type: 'message',
            id: newId('msg'),
            status: 'in_progress',
            role: 'assistant',
            content: [],
          };
          const index = response.output.push(item) - 1;
          message = {
            item,
            index,
            part: { type: 'output_text', text: '', annotations: [], logprobs: [] },
            start: contentLength,
          };
          yield event({ type: 'response.output_item.added', output_index: index, item: clone(item) });
          yield event({
            type: 'response.content_part.added',
            item_id: item.id,
            output_index: index,
            content_index: 0,
            part: clone(message.part),
          });
        }
        message.part.text += delta.content;
        contentLength += delta.content.length;
        yield event({
          type: 'response.output_text.delta',
          item_id: message.item.id,
          output_index: message.index,
          content_index: 0,
          delta: delta.content,
          logprobs: [],
        });
      }
      for (const annotation of delta.annotations ?? []) {
        const citation = message && toUrlCitation(annotation, message.start, message.part.text.length);
        if (!message || !citation) continue;
        const annotationIndex = message.part.annotations.push(citation) - 1;
        yield event({
          type: 'response.output_text.annotation.added',
          item_id: message.item.id,
          output_index: message.index,
          content_index: 0,
          annotation_index: annotationIndex,
          annotation: clone(citation),
        });
      }
      for (const search of delta.web_search_calls ?? []) {
        yield* closeMessage();
        const item = toWebSearchCallItem(search);
        const index = response.output.push(item) - 1;
        yield event({
          type: 'response.output_item.added',
          output_index: index,
          item: clone({ ...item, status: 'in_progress' }),
        });
        yield event({ type: 'response.web_search_call.in_progress', item_id: item.id, output_index: index });
        yield event({ type: 'response.web_search_call.searching', item_id: item.id, output_index: index });
        yield event({ type: 'response.web_search_call.completed', item_id: item.id, output_index: index });
        yield event({ type: 'response.output_item.done', output_index: index, item: clone(item) });
      }
      for (const call of delta.tool_calls ?? []) {
        let open = calls.get(call.index);
        if (!open) {
          yield* closeMessage();
          const item = toToolCallItem(call.id ?? newId('call'), call.function?.name ?? '', '', names, 'in_progress');
          open = { item, index: response.output.push(item) - 1, args: '', input: new CustomInputStream() };
          calls.set(call.index, open);
          yield event({ type: 'response.output_item.added', output_index: open.index, item: clone(item) });
        }
        const piece = call.function?.arguments;
        if (piece) {
          open.args += piece;
          if (open.item.type === 'function_call') {
            open.item.arguments += piece;
            yield event({
              type: 'response.function_call_arguments.delta',
              item_id: open.item.id,
              output_index: open.index,
              delta: piece,
            });
          } else {
            const text = open.input.push(piece);
            if (text)
              yield event({
                type: 'response.custom_tool_call_input.delta',
                item_id: open.item.id,
                output_index: open.index,
                delta: text,
              });
          }
        }
      }
      if (choice.finish_reason) finishReason = choice.finish_reason;
    }
  } catch (error) {
    const failure = toResponseError(error);
    yield event({ type: 'error', code: failure.code, message: failure.message, param: failure.param });
    response.status = 'failed';
    response.error = { code: failure.code, message: failure.message };
    yield event({ type: 'response.failed', response: clone(response) });
    return;
  }
  yield* closeMessage();
  for (const { item, index, args, input } of calls.values()) {
    if (item.type === 'function_call') {
      yield event({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index: index,
        name: item.name,
        arguments: item.arguments,
      });
    } else {
      const rest = input.finish(args);
      item.input = customInputOf(args);
      if (rest)
        yield event({
          type: 'response.custom_tool_call_input.delta',
          item_id: item.id,
          output_index: index,
          delta: rest,
        });
      yield event({
        type: 'response.custom_tool_call_input.done',
        item_id: item.id,
        output_index: index,
        input: item.input,
      });
    }
    item.status = 'completed';
    yield event({ type: 'response.output_item.done', output_index: index, item: clone(item) });
  }
  const finalUsage = convertUsage(usage);
  if (finalUsage) response.usage = finalUsage;
  finishResponse(response, finishReason);
  await onDone?.(response);
  yield event({
    type: response.status === 'incomplete' ? 'response.incomplete' : 'response.completed',
    response: clone(response),
  });
}
