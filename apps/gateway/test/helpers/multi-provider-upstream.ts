import {
  type MockReply,
  type MockRoute,
  type MockUpstream,
  openaiReplayRoutes,
  type RecordedRequest,
  sseFrames,
  startMockUpstream,
  testkitFixtures,
} from '@switchyard/testkit';

const fixtures = testkitFixtures();

/**
 * One mock upstream speaking three APIs from recorded traffic: OpenAI chat (`/v1/chat/completions`: text, or the xAI
 * `weather` tool call when tools are offered), Anthropic Messages (`/v1/messages`: text, a tool use, or thinking with a
 * signature when `thinking` is set; `/v1/messages/count_tokens`: one token per character of the first message) and Gemini
 * (`/v1beta/models/*:generateContent` / `:streamGenerateContent`).
 */
export function startMultiProviderUpstream(): Promise<MockUpstream> {
  return startMockUpstream({ routes: multiProviderRoutes() });
}

/** The routes of {@link startMultiProviderUpstream} (to restore one a test replaced). */
export function multiProviderRoutes(): Record<string, MockRoute> {
  const openai = openaiReplayRoutes();
  const openaiChat = openai['POST /v1/chat/completions'] as (request: RecordedRequest) => MockReply;
  return {
    ...openai,
    'POST /v1/chat/completions': (request) => {
      const body = request.json as { stream?: boolean; tools?: unknown[] };
      if (!body.tools) return openaiChat(request);
      return body.stream
        ? { chunks: sseFrames(fixtures.chunkLines('openai-compatible/xai-tool-call.chunks.txt')) }
        : { json: fixtures.json('openai-compatible/xai-tool-call.json') };
    },
    'POST /v1/messages': (request) => {
      const body = request.json as { stream?: boolean; tools?: unknown[]; thinking?: unknown };
      const name = body.thinking
        ? 'anthropic-clear-thinking.1'
        : body.tools
          ? 'anthropic-tool-no-args'
          : 'anthropic-text';
      return body.stream
        ? { chunks: sseFrames(fixtures.chunkLines(`anthropic/${name}.chunks.txt`), 'typed') }
        : { json: fixtures.json(`anthropic/${name}.json`) };
    },
    // Anthropic's own counter, scripted: one token per character of the first message's text.
    'POST /v1/messages/count_tokens': (request) => ({
      json: {
        input_tokens: String((request.json as { messages: { content: unknown }[] }).messages[0]?.content ?? '').length,
      },
    }),
    'POST /v1beta/models/*:generateContent': (request) => ({
      json: fixtures.json(
        (request.json as { tools?: unknown }).tools ? 'google/google-tool-call.json' : 'google/google-text.json',
      ),
    }),
    'POST /v1beta/models/*:streamGenerateContent': (request) => ({
      chunks: sseFrames(
        fixtures.chunkLines(
          (request.json as { tools?: unknown }).tools
            ? 'google/google-tool-call.chunks.txt'
            : 'google/google-text.chunks.txt',
        ),
        'gemini',
      ),
    }),
  };
}

/** The `providers:` and `models:` YAML for {@link startMultiProviderUpstream}: models `gpt`, `claude` and `gemini`. */
export function multiProviderYaml(upstreamUrl: string): string {
  return `
providers:
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${upstreamUrl}/v1" }
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${upstreamUrl}" }
  google: { adapter: google, api_key: AIza-upstream-0000, base_url: "${upstreamUrl}/v1beta" }
models:
  - { id: gpt, provider: openai, upstream: gpt-4.1-nano, price: { input: 0.15, output: 0.6 } }
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929, price: { input: 3, output: 15 } }
  - { id: gemini, provider: google, upstream: gemini-3-pro-preview }
routing: { max_retries: 0 }
`;
}
