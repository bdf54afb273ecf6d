import type { MockReply, RecordedRequest } from '../mock-upstream/mock-reply.js';
import { sseFrames } from '../mock-upstream/sse-frames.js';
import { shellToolTurn } from './shell-tool-turns.js';

interface ChatBody {
  model?: string;
  stream?: boolean;
  tools?: { function?: { name?: string } }[];
  messages?: { role: string; content: unknown }[];
}

/** The content of a `tool` message that comes after the last assistant message, if there is one. */
function chatToolResult(body: ChatBody): string | undefined {
  const messages = body.messages ?? [];
  const last = messages[messages.length - 1];
  if (last?.role !== 'tool') return undefined;
  return typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
}

/**
 * A scripted OpenAI chat completions upstream for agent tests, as mock routes (`POST /v1/chat/completions`): a turn
 * ending with a `tool` message gets a text quoting it; a turn offering tools gets one call to the shell tool (`Bash`,
 * else the first tool) with `{"command":"ls"}`; streamed as chunks with a final usage chunk when `stream: true`.
 */
export function openaiShellScriptRoutes(): Record<string, (request: RecordedRequest) => MockReply> {
  return {
    'POST /v1/chat/completions': (request) => {
      const body = request.json as ChatBody;
      const turn = shellToolTurn((body.tools ?? []).map((t) => t.function?.name ?? '').filter(Boolean), chatToolResult(body));
      const base = { id: 'chatcmpl-scripted', created: 1_764_000_000, model: body.model ?? 'gpt' };
      const usage = { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 };
      const call = turn.kind === 'call' ? { id: 'call_scripted_0001', type: 'function', function: { name: turn.tool, arguments: JSON.stringify(turn.input) } } : undefined;
      const finish = call ? 'tool_calls' : 'stop';
      if (!body.stream) {
        const message = call ? { role: 'assistant', content: null, tool_calls: [call] } : { role: 'assistant', content: turn.kind === 'text' ? turn.text : '' };
        return { json: { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage } };
      }
      const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finishReason }] });
      const deltas = call
        ? [chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }), chunk({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] })]
        : [chunk({ role: 'assistant', content: '' }), chunk({ content: turn.kind === 'text' ? turn.text : '' })];
      return { chunks: sseFrames([...deltas, chunk({}, finish), JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })]) };
    },
  };
}
