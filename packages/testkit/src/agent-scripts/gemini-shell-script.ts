import type { MockReply, RecordedRequest } from '../mock-upstream/mock-reply.js';
import { sseFrames } from '../mock-upstream/sse-frames.js';
import { shellToolTurn } from './shell-tool-turns.js';

interface GeminiBody {
  tools?: { functionDeclarations?: { name?: string }[] }[];
  contents?: { role?: string; parts?: { functionResponse?: { response?: Record<string, unknown> } }[] }[];
}

/** The response of a `functionResponse` part in the last content, as text (its `result` when it has one), if there is one. */
function geminiToolResult(body: GeminiBody): string | undefined {
  const last = body.contents?.[body.contents.length - 1];
  const response = last?.parts?.find((p) => p.functionResponse)?.functionResponse?.response;
  if (!response) return undefined;
  return typeof response.result === 'string' ? response.result : JSON.stringify(response);
}

/**
 * A scripted Gemini upstream for agent tests, as mock routes (`:generateContent` and `:streamGenerateContent`): a turn
 * ending with a `functionResponse` gets a text quoting it; a turn offering function declarations gets one
 * `functionCall` of the shell tool (`Bash`, else the first) with `{"command":"ls"}`.
 */
export function geminiShellScriptRoutes(): Record<string, (request: RecordedRequest) => MockReply> {
  const answer = (request: RecordedRequest) => {
    const body = request.json as GeminiBody;
    const names = (body.tools ?? []).flatMap((t) => t.functionDeclarations ?? []).map((d) => d.name ?? '').filter(Boolean);
    const turn = shellToolTurn(names, geminiToolResult(body));
    const part = turn.kind === 'call' ? { functionCall: { name: turn.tool, args: turn.input } } : { text: turn.text };
    return {
      candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 30, candidatesTokenCount: 9, totalTokenCount: 39 },
      modelVersion: 'gemini-scripted',
    };
  };
  return {
    'POST /v1beta/models/*:generateContent': (request) => ({ json: answer(request) }),
    'POST /v1beta/models/*:streamGenerateContent': (request) => ({ chunks: sseFrames([JSON.stringify(answer(request))], 'gemini') }),
  };
}
