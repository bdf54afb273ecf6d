import type { AdapterCallContext, ChatCompletionChunk } from '@switchyard/core';
import { type MockUpstream, startMockUpstream, testkitFixtures } from '@switchyard/testkit';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type OpenAIOptions, createOpenAI } from '../../src/index.js';

/** The upstream key of the unit tests; it must never appear in an error. */
export const KEY = 'sk-openai-unit-secret-123456';
/** The recordings of `@switchyard/testkit/fixtures/`. */
export const fixtures = testkitFixtures();

/** A call context with a fresh (or the given) signal, as the gateway gives it for provider `groq`. */
export function callContext(signal: AbortSignal = new AbortController().signal): AdapterCallContext {
  return { signal, requestId: 'req-42', provider: 'groq', warn: () => {} };
}

/** Starts one mock upstream for the test file (cleared before each test) and returns accessors for it. */
export function useMockUpstream() {
  let upstream: MockUpstream;
  beforeAll(async () => {
    upstream = await startMockUpstream();
  });
  beforeEach(() => upstream.clear());
  afterAll(() => upstream.close());
  return {
    upstream: () => upstream,
    /** The adapter under a Groq-like base URL (`<mock>/openai/v1/`, trailing slash on purpose). */
    adapter: (options: OpenAIOptions = {}) =>
      createOpenAI({ apiKey: KEY, baseURL: `${upstream.url}/openai/v1/`, ...options }),
  };
}

/** Reads a chunk stream to its end. */
export async function drain(stream: AsyncIterable<ChatCompletionChunk>): Promise<ChatCompletionChunk[]> {
  const out: ChatCompletionChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}
