import { createFixtureReader, sseFrames } from '@switchyard/testkit';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  PROPERTY_RUNS,
  expectInvalidResponse,
  expectStreamFailure,
  jsonReply,
  malformedVariants,
  notAnObjectText,
  postJson,
  setAt,
  useScriptedUpstream,
  valueAt,
  wrongKindOf,
} from './helpers/malformed-upstream.js';

// Issue #38 item 7 for Cohere: chat and embed answers and chat stream events were read by a cast. Generated malformed
// answers and events, sent by a mock Cohere API through the real gateway, must each come back as 502
// upstream_invalid_response naming the provider (or end the stream with an error event).
const KEY = 'sk-switchyard-cohere-props-0123456789';
const fixtures = createFixtureReader(new URL('../../../packages/provider-cohere/fixtures/', import.meta.url));
const gateway = useScriptedUpstream(
  (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  co: { adapter: cohere, api_key: co-props-secret-000000, base_url: "${url}" }
models:
  - { id: command, provider: co, upstream: command-a-03-2025 }
  - { id: embed, provider: co, upstream: embed-v4.0 }
  - { id: rerank, provider: co, upstream: rerank-v3.5 }
routing: { max_retries: 0 }
`,
);

const text = fixtures.json('cohere/cohere-text.json');
const toolCall = fixtures.json('cohere/cohere-tool-call.json');
const embedding = fixtures.json('cohere/cohere-embedding.json');
const rerank = fixtures.json('cohere/cohere-rerank.json');
const textEvents = fixtures
  .chunkLines('cohere/cohere-text.chunks.txt')
  .map((line) => JSON.parse(line) as { type: string });
const toolEvents = fixtures
  .chunkLines('cohere/cohere-tool-call.chunks.txt')
  .map((line) => JSON.parse(line) as { type: string });
const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: PROPERTY_RUNS });
const chatCall = (stream = false) =>
  postJson(`${gateway.url}/chat/completions`, KEY, {
    model: 'command',
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  });

/** Each stream event of a type the adapter reads, with the paths of the fields it reads. */
const readPaths: Record<string, (string | number)[][]> = {
  'message-start': [['id']],
  'content-delta': [
    ['delta'],
    ['delta', 'message'],
    ['delta', 'message', 'content'],
    ['delta', 'message', 'content', 'text'],
  ],
  'tool-call-start': [
    ['index'],
    ['delta', 'message', 'tool_calls'],
    ['delta', 'message', 'tool_calls', 'id'],
    ['delta', 'message', 'tool_calls', 'function', 'name'],
  ],
  'tool-call-delta': [
    ['delta', 'message', 'tool_calls'],
    ['delta', 'message', 'tool_calls', 'function', 'arguments'],
  ],
  'message-end': [
    ['delta'],
    ['delta', 'finish_reason'],
    ['delta', 'usage'],
    ['delta', 'usage', 'billed_units', 'input_tokens'],
    ['delta', 'usage', 'billed_units', 'output_tokens'],
  ],
};

describe('Cohere: malformed upstream answers become 502 upstream_invalid_response', () => {
  it('chat answers with a read field of the wrong kind or a bad token count', async () => {
    const cases = fc.oneof(
      malformedVariants(
        text,
        [['id'], ['message'], ['message', 'content'], ['message', 'content', 0, 'text'], ['finish_reason'], ['usage']],
        [
          ['usage', 'billed_units', 'input_tokens'],
          ['usage', 'billed_units', 'output_tokens'],
        ],
      ),
      malformedVariants(toolCall, [
        ['message', 'tool_calls'],
        ['message', 'tool_calls', 0, 'id'],
        ['message', 'tool_calls', 0, 'function'],
        ['message', 'tool_calls', 0, 'function', 'name'],
        ['message', 'tool_calls', 0, 'function', 'arguments'],
      ]),
    );
    await property(cases, async ({ body }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await chatCall(), 'co');
    });
  });

  it('chat answers that are not a JSON object', async () => {
    await property(notAnObjectText, async (body) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await chatCall(), 'co');
    });
  });

  it('chat stream events of the wrong shape end the stream with an error event', async () => {
    const picks = [textEvents, toolEvents].flatMap((events, stream) =>
      events.flatMap((event, index) =>
        (readPaths[event.type] ?? [])
          .filter((path) => valueAt(event, path) !== undefined)
          .map((path) => ({ stream, index, path })),
      ),
    );
    const broken = fc.constantFrom(...picks).chain((pick) =>
      wrongKindOf(valueAt([textEvents, toolEvents][pick.stream]![pick.index], pick.path)).map((value) => ({
        ...pick,
        value,
      })),
    );
    await property(broken, async ({ stream, index, path, value }) => {
      const events = [textEvents, toolEvents][stream]!;
      gateway.answer({
        chunks: sseFrames(
          events.map((e, i) => JSON.stringify(i === index ? setAt(e, path, value) : e)),
          'typed',
        ),
      });
      expectStreamFailure(await chatCall(true), 'co');
    });
  });

  it('embed and rerank answers with a read field of the wrong kind or a bad token count', async () => {
    const cases = fc.oneof(
      malformedVariants(
        embedding,
        [['embeddings'], ['embeddings', 'float'], ['embeddings', 'float', 0], ['embeddings', 'float', 0, 1]],
        [['meta', 'billed_units', 'input_tokens']],
      ).map((m) => ({ ...m, path: '/embeddings', request: { model: 'embed', input: ['a', 'b'] } })),
      malformedVariants(rerank, [
        ['results'],
        ['results', 0],
        ['results', 0, 'index'],
        ['results', 0, 'relevance_score'],
      ]).map((m) => ({ ...m, path: '/rerank', request: { model: 'rerank', query: 'q', documents: ['a', 'b', 'c'] } })),
    );
    await property(cases, async ({ body, path, request }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await postJson(`${gateway.url}${path}`, KEY, request), 'co');
    });
  });
});
