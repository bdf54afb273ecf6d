import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PROPERTY_RUNS,
  expectInvalidResponse,
  expectStreamFailure,
  jsonReply,
  malformedVariants,
  postJson,
  setAt,
  useScriptedUpstream,
  valueAt,
  wrongKindOf,
} from './helpers/malformed-upstream.js';

// Issue #38 item 7 for the Anthropic adapter: chat answers and stream events (translated), and the Messages
// pass-through, which forwards the upstream's bytes but meters the usage it reads from the answer or from the
// `message_start` / `message_delta` events. Generated malformed answers and events must each come back as 502
// upstream_invalid_response naming the provider (or end the stream with an error event), and no usage may be read
// from a count that is not a token count.
const KEY = 'sk-switchyard-anthropic-props-0123456789';
const fixtures = testkitFixtures();
const gateway = useScriptedUpstream(
  (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  ant: { adapter: anthropic, api_key: sk-ant-props-secret-000000, base_url: "${url}" }
models:
  - { id: claude, provider: ant, upstream: claude-sonnet-4-5-20250929 }
routing: { max_retries: 0 }
`,
);

const text = fixtures.json('anthropic/anthropic-text.json');
const events = fixtures
  .chunkLines('anthropic/anthropic-text.chunks.txt')
  .map((line) => JSON.parse(line) as { type: string });
const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: PROPERTY_RUNS });
const chatCall = (stream = false) =>
  postJson(`${gateway.url}/chat/completions`, KEY, {
    model: 'claude',
    stream,
    messages: [{ role: 'user', content: 'hi' }],
  });
const messagesCall = (stream = false) =>
  postJson(
    `${gateway.origin}/v1/messages`,
    KEY,
    { model: 'claude', max_tokens: 100, stream, messages: [{ role: 'user', content: 'hi' }] },
    { 'anthropic-version': '2023-06-01' },
  );
const usagePaths = [
  ['usage', 'input_tokens'],
  ['usage', 'output_tokens'],
] as const;

/** The event fields the adapter reads, by type (the pass-through reads only the usage). */
const readPaths: Record<string, (string | number)[][]> = {
  message_start: [
    ['message'],
    ['message', 'id'],
    ['message', 'content'],
    ['message', 'usage'],
    ['message', 'usage', 'input_tokens'],
  ],
  content_block_start: [['index'], ['content_block'], ['content_block', 'type']],
  content_block_delta: [['index'], ['delta'], ['delta', 'type']],
  message_delta: [['delta'], ['usage'], ['usage', 'output_tokens']],
};
const picks = events.flatMap((event, index) =>
  (readPaths[event.type] ?? []).filter((path) => valueAt(event, path) !== undefined).map((path) => ({ index, path })),
);
const brokenEvent = fc
  .constantFrom(...picks)
  .chain((pick) => wrongKindOf(valueAt(events[pick.index], pick.path)).map((value) => ({ ...pick, value })));
const framesWith = ({ index, path, value }: { index: number; path: (string | number)[]; value: unknown }) =>
  sseFrames(
    events.map((e, i) => JSON.stringify(i === index ? setAt(e, path, value) : e)),
    'typed',
  );

describe('Anthropic: malformed upstream answers become 502 upstream_invalid_response', () => {
  it('chat answers with a read field of the wrong kind or a bad token count', async () => {
    await property(
      malformedVariants(
        text,
        [['id'], ['model'], ['content'], ['content', 0], ['content', 0, 'text'], ['usage']],
        usagePaths,
      ),
      async ({ body }) => {
        gateway.answer(jsonReply(body));
        expectInvalidResponse(await chatCall(), 'ant');
      },
    );
  });

  it('chat streams with an event of the wrong shape end with an error event', async () => {
    await property(brokenEvent, async (broken) => {
      gateway.answer({ chunks: framesWith(broken) });
      expectStreamFailure(await chatCall(true), 'ant');
    });
  });

  it('Messages pass-through answers whose usage is not token counts', async () => {
    const usage = fc.oneof(malformedVariants(text, [['usage']]), malformedVariants(text, [], usagePaths));
    await property(usage, async ({ body }) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await messagesCall(), 'ant', 'anthropic');
    });
  });

  it('Messages pass-through streams whose message_start or message_delta usage is not token counts end with an error event', async () => {
    const usageEvents = picks.filter(({ path }) => path.includes('usage'));
    const broken = fc
      .constantFrom(...usageEvents)
      .chain((pick) => wrongKindOf(valueAt(events[pick.index], pick.path)).map((value) => ({ ...pick, value })));
    await property(broken, async (pick) => {
      gateway.answer({ chunks: framesWith(pick) });
      const answer = await messagesCall(true);
      if (answer.status !== 200) {
        expectInvalidResponse(answer, 'ant', 'anthropic');
        return;
      }
      // Anthropic's own error event ends the stream: `event: error` with `{type: "error", error: {type, message}}`.
      const last = answer.text.trim().split(/\n\n/).at(-1)!;
      expect(last, answer.text).toMatch(/^event: error\n/);
      expect(last).toContain("'ant'");
      expect(last).toContain('invalid response');
    });
  });
});
