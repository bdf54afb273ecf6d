import type { MockReply, RecordedRequest } from '../mock-upstream/mock-reply.js';
import { sseFrames } from '../mock-upstream/sse-frames.js';
import { type ShellToolTurn, shellToolTurn } from './shell-tool-turns.js';

interface AnthropicBody {
  model?: string;
  stream?: boolean;
  tools?: { name?: string }[];
  messages?: { role: string; content: unknown }[];
}

/** The text of the last `tool_result` block of the last user message, if it has one. */
export function anthropicToolResult(body: AnthropicBody): string | undefined {
  const last = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  if (!last || !Array.isArray(last.content)) return undefined;
  const result = [...(last.content as { type?: string; content?: unknown }[])].reverse().find((b) => b.type === 'tool_result');
  if (!result) return undefined;
  if (typeof result.content === 'string') return result.content;
  return Array.isArray(result.content) ? (result.content as { text?: string }[]).map((c) => c.text ?? '').join('') : '';
}

/** The scripted turn of an Anthropic Messages body (see `shellToolTurn`). */
export function anthropicShellTurn(body: AnthropicBody): ShellToolTurn {
  return shellToolTurn((body.tools ?? []).map((t) => t.name ?? '').filter(Boolean), anthropicToolResult(body));
}

/** Anthropic's stream events (as JSON objects) of a scripted turn, with usage in `message_start` (input and cache tokens). */
export function anthropicShellEvents(turn: ShellToolTurn, model: string): Record<string, unknown>[] {
  const usage = { input_tokens: 21, cache_creation_input_tokens: 4, cache_read_input_tokens: 8, output_tokens: 1 };
  const message = { id: 'msg_scripted_0001', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage };
  const block =
    turn.kind === 'call'
      ? [
          { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_scripted_0001', name: turn.tool, input: {} } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"command":' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: `${JSON.stringify(turn.input.command)}}` } },
        ]
      : [
          { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } },
        ];
  return [
    { type: 'message_start', message },
    { type: 'ping' },
    ...block,
    { type: 'content_block_stop', index: 0 },
    { type: 'message_delta', delta: { stop_reason: turn.kind === 'call' ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
    { type: 'message_stop' },
  ];
}

/** Anthropic's whole `message` of a scripted turn. */
export function anthropicShellMessage(turn: ShellToolTurn, model: string): Record<string, unknown> {
  const content = turn.kind === 'call' ? [{ type: 'tool_use', id: 'toolu_scripted_0001', name: turn.tool, input: turn.input }] : [{ type: 'text', text: turn.text }];
  return {
    id: 'msg_scripted_0001',
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: turn.kind === 'call' ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 21, cache_creation_input_tokens: 4, cache_read_input_tokens: 8, output_tokens: 9 },
  };
}

/**
 * A scripted Anthropic Messages upstream for agent tests, as mock routes: `POST /v1/messages` answers a turn offering
 * tools with one call to the client's shell tool (`Bash`) running `ls` and a turn carrying the tool result with a text
 * quoting it (streamed as Anthropic events when `stream: true`, else a whole message), and `POST
 * /v1/messages/count_tokens` answers `{"input_tokens": <body length / 4>}`.
 */
export function anthropicShellScriptRoutes(): Record<string, (request: RecordedRequest) => MockReply> {
  return {
    'POST /v1/messages': (request) => {
      const body = request.json as AnthropicBody;
      const turn = anthropicShellTurn(body);
      const model = body.model ?? 'claude';
      if (body.stream) return { headers: { 'request-id': 'req_scripted_0001' }, chunks: sseFrames(anthropicShellEvents(turn, model).map((e) => JSON.stringify(e)), 'typed') };
      return { headers: { 'request-id': 'req_scripted_0001' }, json: anthropicShellMessage(turn, model) };
    },
    'POST /v1/messages/count_tokens': (request) => ({ json: { input_tokens: Math.ceil(request.bodyText.length / 4) } }),
  };
}
