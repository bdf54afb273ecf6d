import {
  type MockReply,
  type MockRoute,
  type RecordedRequest,
  eventStreamFrames,
  sseFrames,
} from '@switchyard/testkit';

import { SCRIPTED_USAGE, type ScriptedShellCall, argumentPieces, nextTurn, textOf } from './scripted-agent-turns.js';

export { SCRIPTED_PLAIN_TEXT, type ScriptedShellCall, quoteToolResult } from './scripted-agent-turns.js';
export { SCRIPTED_ENCRYPTED_REASONING, scriptedResponsesRoute } from './scripted-responses-route.js';

/**
 * OpenAI chat completions (`POST /v1/chat/completions`), scripted for an agent's tool round trip: a request whose last
 * message is a `tool` result gets text quoting it; one that offers `shell.tool` gets one call of it; anything else gets
 * {@link SCRIPTED_PLAIN_TEXT}. Streams chunks (with a usage chunk) when the request has `stream: true`, else JSON.
 */
export function scriptedChatRoute(shell: ScriptedShellCall): MockRoute {
  return (request: RecordedRequest): MockReply => {
    const body = request.json as {
      model: string;
      stream?: boolean;
      messages: { role: string; content: unknown }[];
      tools?: { function: { name: string } }[];
    };
    const last = body.messages.at(-1);
    const turn = nextTurn(
      last?.role === 'tool' ? textOf(last.content) : undefined,
      (body.tools ?? []).map((t) => t.function.name),
      shell,
    );
    const id = `chatcmpl-scripted-${request.bodyText.length}`;
    const usage = {
      prompt_tokens: SCRIPTED_USAGE.input,
      completion_tokens: SCRIPTED_USAGE.output,
      total_tokens: SCRIPTED_USAGE.input + SCRIPTED_USAGE.output,
    };
    const toolCall =
      turn.kind === 'call'
        ? {
            id: 'call_scripted_1',
            type: 'function',
            function: { name: turn.call.tool, arguments: JSON.stringify(turn.call.arguments) },
          }
        : undefined;
    const finish = toolCall ? 'tool_calls' : 'stop';
    if (!body.stream) {
      const message = toolCall
        ? { role: 'assistant', content: null, tool_calls: [toolCall] }
        : { role: 'assistant', content: (turn as { text: string }).text };
      return {
        json: {
          id,
          object: 'chat.completion',
          created: 1_760_000_000,
          model: body.model,
          choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
          usage,
        },
      };
    }
    const chunk = (
      delta: Record<string, unknown>,
      finishReason: string | null = null,
      extra: Record<string, unknown> = {},
    ) =>
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: 1_760_000_000,
        model: body.model,
        choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
        ...extra,
      });
    const payloads = [chunk({ role: 'assistant', content: '' })];
    if (toolCall) {
      const args = toolCall.function.arguments;
      payloads.push(
        chunk({
          tool_calls: [
            { index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: '' } },
          ],
        }),
      );
      for (const piece of argumentPieces(args, shell, 5))
        payloads.push(chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    } else {
      const text = (turn as { text: string }).text;
      payloads.push(chunk({ content: text.slice(0, 10) }), chunk({ content: text.slice(10) }));
    }
    payloads.push(
      chunk({}, finish),
      JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created: 1_760_000_000,
        model: body.model,
        choices: [],
        usage,
      }),
    );
    return { chunks: sseFrames(payloads, 'openai') };
  };
}

/** A scripted Anthropic answer to one Messages body: the whole `message`, and the same as Anthropic's stream events. */
export interface ScriptedAnthropicAnswer {
  message: Record<string, unknown>;
  events: Record<string, unknown>[];
}

/**
 * The scripted answer to an Anthropic Messages body: the last user message holding a `tool_result` gets text quoting
 * it; a body offering `shell.tool` gets one `tool_use`; usage reports input, cache write and cache read tokens (21, 4
 * and 8) in `message_start`, as Anthropic does. `id` names the message.
 */
export function scriptedAnthropicAnswer(
  body: { model?: string; messages: { role: string; content: unknown }[]; tools?: { name: string }[] },
  shell: ScriptedShellCall,
  id: string,
): ScriptedAnthropicAnswer {
  const lastUser = [...body.messages].reverse().find((m) => m.role === 'user');
  const toolResult = Array.isArray(lastUser?.content)
    ? (lastUser.content as { type: string; content?: unknown }[]).find((b) => b.type === 'tool_result')
    : undefined;
  const turn = nextTurn(
    toolResult ? textOf(toolResult.content) : undefined,
    (body.tools ?? []).map((t) => t.name),
    shell,
  );
  const block =
    turn.kind === 'call'
      ? { type: 'tool_use', id: 'toolu_scripted_1', name: turn.call.tool, input: turn.call.arguments }
      : { type: 'text', text: turn.text };
  const stop = turn.kind === 'call' ? 'tool_use' : 'end_turn';
  const input = { input_tokens: SCRIPTED_USAGE.input, cache_creation_input_tokens: 4, cache_read_input_tokens: 8 };
  const model = body.model ?? 'claude';
  const message = {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [block],
    stop_reason: stop,
    stop_sequence: null,
    usage: { ...input, output_tokens: SCRIPTED_USAGE.output },
  };
  const events: Record<string, unknown>[] = [
    {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...input, output_tokens: 1 } },
    },
  ];
  if (block.type === 'tool_use') {
    const json = JSON.stringify((block as { input: unknown }).input);
    events.push({ type: 'content_block_start', index: 0, content_block: { ...block, input: {} } });
    for (const piece of argumentPieces(json, shell, 4))
      events.push({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: piece } });
  } else {
    const text = (block as { text: string }).text;
    events.push(
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(0, 10) } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(10) } },
    );
  }
  events.push(
    { type: 'content_block_stop', index: 0 },
    {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: SCRIPTED_USAGE.output },
    },
    { type: 'message_stop' },
  );
  return { message, events };
}

/**
 * Anthropic Messages (`POST /v1/messages`), scripted like {@link scriptedChatRoute} (see {@link scriptedAnthropicAnswer}):
 * streams Anthropic's events when `stream: true`, else a JSON message; with a `request-id` header.
 */
export function scriptedAnthropicRoute(shell: ScriptedShellCall): MockRoute {
  return (request: RecordedRequest): MockReply => {
    const body = request.json as Parameters<typeof scriptedAnthropicAnswer>[0] & { stream?: boolean };
    const { message, events } = scriptedAnthropicAnswer(body, shell, `msg_scripted_${request.bodyText.length}`);
    const headers = { 'request-id': `req_scripted_${request.bodyText.length}` };
    if (!body.stream) return { headers, json: message };
    return {
      headers,
      chunks: sseFrames(
        events.map((e) => JSON.stringify(e)),
        'typed',
      ),
    };
  };
}

/**
 * Claude on Bedrock, scripted like {@link scriptedAnthropicRoute}, as routes: `POST /model/{id}/invoke` answers the
 * message; `/invoke-with-response-stream` the events as event-stream `chunk` frames, each holding one event's JSON as
 * base64 `bytes` (InvokeModelWithResponseStream); `/count-tokens` answers `{"inputTokens": <body length / 4>}`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html
 */
export function scriptedBedrockRoutes(shell: ScriptedShellCall): Record<string, MockRoute> {
  const answer = (request: RecordedRequest) =>
    scriptedAnthropicAnswer(
      request.json as Parameters<typeof scriptedAnthropicAnswer>[0],
      shell,
      `msg_bdrk_${request.bodyText.length}`,
    );
  return {
    'POST /model/*/invoke': (request) => ({ json: answer(request).message }),
    'POST /model/*/invoke-with-response-stream': (request) => {
      const frames = answer(request).events.map((event) =>
        JSON.stringify({ chunk: { bytes: Buffer.from(JSON.stringify(event)).toString('base64') } }),
      );
      return { headers: { 'content-type': 'application/vnd.amazon.eventstream' }, chunks: eventStreamFrames(frames) };
    },
    'POST /model/*/count-tokens': (request) => ({ json: { inputTokens: Math.ceil(request.bodyText.length / 4) } }),
  };
}

/**
 * Gemini (`:generateContent` and `:streamGenerateContent`), scripted like {@link scriptedChatRoute}: contents ending
 * with a `functionResponse` get text quoting it (its `result`, else its JSON); a request declaring `shell.tool` gets
 * one `functionCall` of it.
 */
export function scriptedGeminiRoutes(shell: ScriptedShellCall): Record<string, MockRoute> {
  const answer = (request: RecordedRequest) => {
    const body = request.json as {
      tools?: { functionDeclarations?: { name: string }[] }[];
      contents: { parts?: { functionResponse?: { response?: Record<string, unknown> } }[] }[];
    };
    const response = body.contents.at(-1)?.parts?.find((p) => p.functionResponse)?.functionResponse?.response;
    const result =
      response === undefined
        ? undefined
        : typeof response.result === 'string'
          ? response.result
          : JSON.stringify(response);
    const turn = nextTurn(
      result,
      (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name),
      shell,
    );
    const part =
      turn.kind === 'call'
        ? { functionCall: { name: turn.call.tool, args: turn.call.arguments } }
        : { text: turn.text };
    return {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: {
        promptTokenCount: SCRIPTED_USAGE.input,
        candidatesTokenCount: SCRIPTED_USAGE.output,
        totalTokenCount: SCRIPTED_USAGE.input + SCRIPTED_USAGE.output,
      },
      modelVersion: 'gemini-scripted',
    };
  };
  return {
    'POST /v1beta/models/*:generateContent': (request) => ({ json: answer(request) }),
    'POST /v1beta/models/*:streamGenerateContent': (request) => ({
      chunks: sseFrames([JSON.stringify(answer(request))], 'gemini'),
    }),
  };
}
