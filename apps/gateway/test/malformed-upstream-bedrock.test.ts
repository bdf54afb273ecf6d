import { eventStreamFrames, testkitFixtures } from '@switchyard/testkit';
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

// Issue #38 item 7 for Bedrock: Converse answers, ConverseStream event payloads and InvokeModel answers (embeddings,
// images) were read by a cast. Generated malformed answers and event payloads, sent by a mock Bedrock runtime through
// the real gateway, must each come back as 502 upstream_invalid_response naming the provider (or end the stream with
// an error event).
const KEY = 'sk-switchyard-bedrock-props-0123456789';
const fixtures = testkitFixtures();
const gateway = useScriptedUpstream(
  (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  br: { adapter: bedrock, region: us-east-1, access_key_id: AKIAIOSFODNN7EXAMPLE, secret_access_key: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", base_url: "${url}", control_base_url: "${url}" }
models:
  - { id: claude, provider: br, upstream: "anthropic.claude-3-5-sonnet-20241022-v2:0" }
  - { id: titan, provider: br, upstream: "amazon.titan-embed-text-v2:0" }
  - { id: cohere-embed, provider: br, upstream: cohere.embed-english-v3 }
  - { id: canvas, provider: br, upstream: "amazon.nova-canvas-v1:0" }
routing: { max_retries: 0 }
`,
);

const text = fixtures.json('amazon-bedrock/amazon-bedrock-text.json');
const toolCall = fixtures.json('amazon-bedrock/amazon-bedrock-tool-call.1.json');
const streams = ['amazon-bedrock-text', 'amazon-bedrock-tool-call.1', 'amazon-bedrock-reasoning'].map((name) =>
  fixtures.chunkLines(`amazon-bedrock/${name}.chunks.txt`).map((line) => JSON.parse(line) as Record<string, unknown>),
);
const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: PROPERTY_RUNS });
const chatCall = (stream = false) =>
  postJson(`${gateway.url}/chat/completions`, KEY, {
    model: 'claude',
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  });

/** The payload fields the adapter reads, by event type. */
const readPaths: Record<string, (string | number)[][]> = {
  contentBlockStart: [
    ['contentBlockIndex'],
    ['start'],
    ['start', 'toolUse'],
    ['start', 'toolUse', 'toolUseId'],
    ['start', 'toolUse', 'name'],
  ],
  contentBlockDelta: [
    ['contentBlockIndex'],
    ['delta'],
    ['delta', 'text'],
    ['delta', 'toolUse', 'input'],
    ['delta', 'reasoningContent'],
    ['delta', 'reasoningContent', 'text'],
    ['delta', 'reasoningContent', 'signature'],
  ],
  contentBlockStop: [['contentBlockIndex']],
  messageStop: [['stopReason']],
  metadata: [['usage'], ['usage', 'inputTokens'], ['usage', 'outputTokens']],
};

describe('Bedrock: malformed upstream answers become 502 upstream_invalid_response', () => {
  it('Converse answers with a read field of the wrong kind or a bad token count', async () => {
    const cases = fc.oneof(
      malformedVariants(
        text,
        [
          ['output'],
          ['output', 'message'],
          ['output', 'message', 'content'],
          ['output', 'message', 'content', 0, 'text'],
          ['stopReason'],
          ['usage'],
        ],
        [
          ['usage', 'inputTokens'],
          ['usage', 'outputTokens'],
        ],
      ),
      malformedVariants(toolCall, [
        ['output', 'message', 'content', 0, 'toolUse'],
        ['output', 'message', 'content', 0, 'toolUse', 'toolUseId'],
        ['output', 'message', 'content', 0, 'toolUse', 'name'],
      ]),
    );
    await property(cases, async ({ body }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await chatCall(), 'br');
    });
  });

  it('Converse answers that are not a JSON object', async () => {
    await property(notAnObjectText, async (body) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await chatCall(), 'br');
    });
  });

  it('ConverseStream event payloads of the wrong shape end the stream with an error event', async () => {
    const picks = streams.flatMap((events, stream) =>
      events.flatMap((event, index) => {
        const [type, payload] = Object.entries(event)[0]!;
        return (readPaths[type] ?? [])
          .filter((path) => valueAt(payload, path) !== undefined)
          .map((path) => ({ stream, index, path: [type, ...path] }));
      }),
    );
    const broken = fc
      .constantFrom(...picks)
      .chain((pick) =>
        wrongKindOf(valueAt(streams[pick.stream]![pick.index], pick.path)).map((value) => ({ ...pick, value })),
      );
    await property(broken, async ({ stream, index, path, value }) => {
      const lines = streams[stream]!.map((e, i) => JSON.stringify(i === index ? setAt(e, path, value) : e));
      gateway.answer({
        headers: { 'content-type': 'application/vnd.amazon.eventstream' },
        chunks: eventStreamFrames(lines),
      });
      expectStreamFailure(await chatCall(true), 'br');
    });
  });

  it('InvokeModel embeddings (Titan, Cohere) and image answers with a read field of the wrong kind or a bad token count', async () => {
    const titan = { embedding: [0.1, 0.2, -0.3], inputTextTokenCount: 3 };
    const cohere = {
      id: 'x',
      embeddings: {
        float: [
          [0.1, 0.2],
          [0.3, 0.4],
        ],
      },
      texts: ['a', 'b'],
    };
    const canvas = { images: ['iVBORw0KGgo='], error: null };
    const cases = fc.oneof(
      malformedVariants(titan, [['embedding'], ['embedding', 1]], [['inputTextTokenCount']]).map((m) => ({
        ...m,
        path: '/embeddings',
        request: { model: 'titan', input: 'a' },
      })),
      malformedVariants(cohere, [
        ['embeddings', 'float'],
        ['embeddings', 'float', 0],
        ['embeddings', 'float', 1, 0],
      ]).map((m) => ({ ...m, path: '/embeddings', request: { model: 'cohere-embed', input: ['a', 'b'] } })),
      malformedVariants(canvas, [['images'], ['images', 0]]).map((m) => ({
        ...m,
        path: '/images/generations',
        request: { model: 'canvas', prompt: 'a cat', response_format: 'b64_json' },
      })),
    );
    await property(cases, async ({ body, path, request }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await postJson(`${gateway.url}${path}`, KEY, request), 'br');
    });
  });
});
