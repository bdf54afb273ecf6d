import { newResponseObject, responsesRequestSchema } from '@switchyard/front-door-responses';
import { type MockReply, type MockRoute, type RecordedRequest, sseFrames } from '@switchyard/testkit';
import { SCRIPTED_USAGE, type ScriptedShellCall, nextTurn, textOf } from './scripted-agent-turns.js';

/** The encrypted reasoning the scripted Responses upstream puts before its first turn's call (Codex replays it). */
export const SCRIPTED_ENCRYPTED_REASONING = 'gAAAAB-scripted-encrypted-reasoning';

/**
 * OpenAI Responses (`POST /v1/responses`), scripted like `scriptedChatRoute`: input ending with a
 * `function_call_output` gets a message quoting it; one offering `shell.tool` (a function tool) gets a `reasoning` item
 * (with `encrypted_content` {@link SCRIPTED_ENCRYPTED_REASONING}) and one `function_call`. Streams OpenAI's event
 * sequence (`response.created` ... `response.completed`, sequence numbers from 0) when `stream: true`, else the JSON
 * response object; response objects carry every field of OpenAI's `Response` schema.
 */
export function scriptedResponsesRoute(shell: ScriptedShellCall): MockRoute {
  return (request: RecordedRequest): MockReply => {
    const request_ = responsesRequestSchema.parse(request.json);
    const input = typeof request_.input === 'string' ? [] : (request_.input as { type?: string; output?: unknown }[]);
    const last = input.at(-1);
    const offered = (request_.tools ?? []).flatMap((t) =>
      t.type === 'function' && typeof t.name === 'string' ? [t.name] : [],
    );
    const turn = nextTurn(last?.type === 'function_call_output' ? textOf(last.output) : undefined, offered, shell);
    const n = request.bodyText.length;
    const response = {
      ...newResponseObject(`resp_scripted_${n}`, request_, 1_760_000_000, request_.store !== false),
      model: request_.model,
    } as Record<string, unknown>;
    const items: Record<string, unknown>[] =
      turn.kind === 'call'
        ? [
            { type: 'reasoning', id: `rs_scripted_${n}`, summary: [], encrypted_content: SCRIPTED_ENCRYPTED_REASONING },
            {
              type: 'function_call',
              id: `fc_scripted_${n}`,
              call_id: 'call_scripted_1',
              name: turn.call.tool,
              arguments: JSON.stringify(turn.call.arguments),
              status: 'completed',
            },
          ]
        : [
            {
              type: 'message',
              id: `msg_scripted_${n}`,
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: turn.text, annotations: [], logprobs: [] }],
            },
          ];
    const usage = {
      input_tokens: SCRIPTED_USAGE.input,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: SCRIPTED_USAGE.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: SCRIPTED_USAGE.input + SCRIPTED_USAGE.output,
    };
    const text = turn.kind === 'text' ? turn.text : '';
    const done = {
      ...response,
      status: 'completed',
      completed_at: 1_760_000_001,
      output: items,
      output_text: text,
      usage,
    };
    if (!request_.stream) return { json: done };
    const events: Record<string, unknown>[] = [
      { type: 'response.created', response },
      { type: 'response.in_progress', response },
    ];
    items.forEach((item, index) => {
      if (item.type === 'message') {
        const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
        events.push(
          {
            type: 'response.output_item.added',
            output_index: index,
            item: { ...item, status: 'in_progress', content: [] },
          },
          { type: 'response.content_part.added', item_id: item.id, output_index: index, content_index: 0, part },
          {
            type: 'response.output_text.delta',
            item_id: item.id,
            output_index: index,
            content_index: 0,
            delta: text,
            logprobs: [],
          },
          {
            type: 'response.output_text.done',
            item_id: item.id,
            output_index: index,
            content_index: 0,
            text,
            logprobs: [],
          },
          {
            type: 'response.content_part.done',
            item_id: item.id,
            output_index: index,
            content_index: 0,
            part: { ...part, text },
          },
        );
      } else if (item.type === 'function_call') {
        events.push(
          {
            type: 'response.output_item.added',
            output_index: index,
            item: { ...item, arguments: '', status: 'in_progress' },
          },
          {
            type: 'response.function_call_arguments.delta',
            item_id: item.id,
            output_index: index,
            delta: item.arguments,
          },
          {
            type: 'response.function_call_arguments.done',
            item_id: item.id,
            output_index: index,
            name: item.name,
            arguments: item.arguments,
          },
        );
      } else {
        events.push({ type: 'response.output_item.added', output_index: index, item });
      }
      events.push({ type: 'response.output_item.done', output_index: index, item });
    });
    events.push({ type: 'response.completed', response: done });
    return {
      chunks: sseFrames(
        events.map((e, i) => JSON.stringify({ ...e, sequence_number: i })),
        'typed',
      ),
    };
  };
}
