import type { AdapterCallContext, ChatCompletionRequest, GatewayWarning } from '@switchyard/core';
import { type MockReply, sseFrames, testkitFixtures } from '@switchyard/testkit';

/** The upstream key the tests use; it must never appear in what a client sees. */
export const KEY = 'sk-ant-unit-secret-123456';
/** The recordings shipped in @switchyard/testkit (provenance in fixtures/anthropic/README.md). */
export const fixtures = testkitFixtures();
/** The mock upstream route of the Messages API. */
export const MESSAGES = 'POST /v1/messages';

/** An adapter call context that records warnings; `signal` defaults to one that never aborts. */
export function callContext(
  signal: AbortSignal = new AbortController().signal,
): AdapterCallContext & { warnings: GatewayWarning[] } {
  const warnings: GatewayWarning[] = [];
  return { signal, requestId: 'req-1', provider: 'anthropic', warn: (w) => warnings.push(w), warnings };
}

/** A recorded whole answer, `anthropic/<name>.json`, as a mock reply. */
export function recorded(name: string): MockReply {
  return { json: fixtures.json(`anthropic/${name}.json`) };
}

/** A recorded stream, `anthropic/<name>.chunks.txt`, framed as Anthropic sends it (`event:` + `data:`, no [DONE]). */
export function replay(name: string): MockReply {
  return { chunks: sseFrames(fixtures.chunkLines(`anthropic/${name}.chunks.txt`), 'typed') };
}

/** A minimal chat request for `model`, plus `extra` fields. */
export function chatRequest(
  extra: Partial<ChatCompletionRequest> & Record<string, unknown> = {},
): ChatCompletionRequest {
  return {
    model: 'claude-sonnet-4-5-20250929',
    messages: [{ role: 'user', content: 'Hello' }],
    ...extra,
  } as ChatCompletionRequest;
}
