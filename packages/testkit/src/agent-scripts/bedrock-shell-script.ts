import { eventStreamFrames } from '../aws/event-stream-frames.js';
import type { MockReply, RecordedRequest } from '../mock-upstream/mock-reply.js';
import { anthropicShellEvents, anthropicShellMessage, anthropicShellTurn } from './anthropic-shell-script.js';

/**
 * A scripted Claude-on-Bedrock upstream for agent tests, as mock routes: `POST /model/{id}/invoke` answers the scripted
 * turn (see `anthropicShellScriptRoutes`) as Anthropic's message; `/invoke-with-response-stream` as event-stream
 * `chunk` frames each holding one Anthropic event as base64 `bytes`, as Bedrock's InvokeModelWithResponseStream does;
 * `/count-tokens` answers `{"inputTokens": <body length / 4>}`.
 * @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModelWithResponseStream.html
 */
export function bedrockShellScriptRoutes(): Record<string, (request: RecordedRequest) => MockReply> {
  return {
    'POST /model/*/invoke': (request) => ({ json: anthropicShellMessage(anthropicShellTurn(request.json as object), 'claude-bedrock') }),
    'POST /model/*/invoke-with-response-stream': (request) => {
      const events = anthropicShellEvents(anthropicShellTurn(request.json as object), 'claude-bedrock');
      const frames = eventStreamFrames(events.map((event) => JSON.stringify({ chunk: { bytes: Buffer.from(JSON.stringify(event)).toString('base64') } })));
      return { headers: { 'content-type': 'application/vnd.amazon.eventstream' }, chunks: frames };
    },
    'POST /model/*/count-tokens': (request) => ({ json: { inputTokens: Math.ceil(request.bodyText.length / 4) } }),
  };
}
