import { type MockUpstream, type RecordedRequest, sseFrames, startMockUpstream } from '@switchyard/testkit';

// The mock upstream of the response cache test (e2e-response-cache.test.ts): every answer is different, so a second
// upstream call is never mistaken for a cache hit.

/** The chat route of the mock upstream. */
export const CHAT = 'POST /v1/chat/completions';
/** The embeddings route of the mock upstream. */
export const EMBEDDINGS = 'POST /v1/embeddings';

type ChatBody = { messages: { content: string }[]; stream?: boolean; stream_options?: { include_usage?: boolean } };

/** A started cache-test upstream and how often it saw a chat prompt. */
export interface CacheTestUpstream {
  upstream: MockUpstream;
  /** How often the upstream saw `content` (the last chat message) since the start. */
  upstreamCalls: (content: string) => number;
}

/**
 * Starts the mock upstream: chat answers (JSON or SSE with an optional usage chunk) whose text names the call number
 * and prompt; prompts with "slow" take 300 ms; the first call of a "flaky" prompt fails with a 500 after 300 ms.
 * Embeddings answer `[n, 0.5, -0.25]` for call `n` ("slow" inputs after 300 ms).
 */
export async function startCacheTestUpstream(): Promise<CacheTestUpstream> {
  let upstream: MockUpstream | undefined;
  const upstreamCalls = (content: string) =>
    (upstream?.requestsTo(CHAT) ?? []).filter((r) => (r.json as ChatBody).messages.at(-1)?.content === content).length;
  /** Answer number `n` of the upstream: its text names the call, so a second upstream call is never mistaken for a hit. */
  function chatReply(request: RecordedRequest, n: number) {
    const body = request.json as ChatBody;
    const content = body.messages.at(-1)?.content ?? '';
    const text = `answer #${n} to ${content}`;
    const usage = { prompt_tokens: 10, completion_tokens: 20, total_tokens: 30 };
    // "slow" prompts take 300 ms; the first call of a "flaky" prompt fails after 300 ms.
    const delayMs = /slow|flaky/.test(content) ? 300 : 0;
    if (content.includes('flaky') && upstreamCalls(content) === 1)
      return {
        delayMs,
        status: 500,
        json: { error: { message: 'boom', type: 'server_error', param: null, code: null } },
      };
    if (!body.stream) {
      return {
        delayMs,
        json: {
          id: `c${n}`,
          object: 'chat.completion',
          created: 1_700_000_000 + n,
          model: 'gpt-4.1-nano',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop', logprobs: null }],
          usage,
        },
      };
    }
    const chunk = (delta: object, finish: string | null = null) => ({
      id: `s${n}`,
      object: 'chat.completion.chunk',
      created: 1_700_000_000 + n,
      model: 'gpt-4.1-nano',
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    const events: object[] = [
      chunk({ role: 'assistant', content: '' }),
      ...text.split(' ').map((word, i) => chunk({ content: i === 0 ? word : ` ${word}` })),
      chunk({}, 'stop'),
    ];
    if (body.stream_options?.include_usage)
      events.push({
        id: `s${n}`,
        object: 'chat.completion.chunk',
        created: 1_700_000_000 + n,
        model: 'gpt-4.1-nano',
        choices: [],
        usage,
      });
    return { chunks: sseFrames(events.map((e) => JSON.stringify(e))) };
  }

  upstream = await startMockUpstream({
    routes: {
      [CHAT]: chatReply,
      [EMBEDDINGS]: (request, n) => ({
        delayMs: /slow/.test((request.json as { input: string }).input) ? 300 : 0,
        json: {
          object: 'list',
          data: [{ object: 'embedding', index: 0, embedding: [n, 0.5, -0.25] }],
          model: 'text-embedding-3-small',
          usage: { prompt_tokens: 3, total_tokens: 3 },
        },
      }),
    },
  });
  return { upstream, upstreamCalls };
}
