import { sseFrames, testkitFixtures } from '@switchyard/testkit';
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

// Issue #38 item 7 for the OpenAI adapter and its presets: the pass-through answer and the streamed byte runs (checked
// by core's hand-written checks, zod when unsure), the preset paths that repair an answer before checking it (Mistral,
// xAI), and JSON transcriptions. Every generated malformed body or stream event
// must come back as 502 upstream_invalid_response naming the provider, or end the stream with an error event.
const KEY = 'sk-switchyard-openai-props-0123456789';
const fixtures = testkitFixtures();
const gateway = useScriptedUpstream(
  (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  oa: { adapter: openai, api_key: sk-up-0123456789, base_url: "${url}/v1" }
  mis: { adapter: mistral, api_key: mistral-key-0123456789, base_url: "${url}/v1" }
  grok: { adapter: xai, api_key: xai-key-0123456789, base_url: "${url}/v1" }
models:
  - { id: gpt, provider: oa, upstream: gpt-4.1-nano }
  - { id: whisper, provider: oa, upstream: whisper-1 }
  - { id: mistral, provider: mis, upstream: mistral-small-latest }
  - { id: grok, provider: grok, upstream: grok-4 }
routing: { max_retries: 0 }
`,
);

const chat = fixtures.json('openai/openai-text.json');
const chatPaths = [
  ['id'],
  ['object'],
  ['created'],
  ['model'],
  ['choices'],
  ['choices', 0],
  ['choices', 0, 'index'],
  ['choices', 0, 'message'],
  ['choices', 0, 'message', 'content'],
  ['usage'],
] as const;
const usageCounts = [
  ['usage', 'prompt_tokens'],
  ['usage', 'completion_tokens'],
  ['usage', 'total_tokens'],
] as const;
const streamEvents = fixtures.chunkLines('openai/openai-text.chunks.txt').map((line) => JSON.parse(line) as unknown);
const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: PROPERTY_RUNS });
const chatCall = (model: string, stream = false) =>
  postJson(`${gateway.url}/chat/completions`, KEY, {
    model,
    stream,
    ...(stream && { stream_options: { include_usage: true } }),
    messages: [{ role: 'user', content: 'hi' }],
  });

describe('OpenAI and its presets: malformed upstream answers become 502 upstream_invalid_response', () => {
  it('chat completions (the pass-through, and the Mistral and xAI repairs) with a read field of the wrong kind or a bad count', async () => {
    await property(
      fc.tuple(
        fc.constantFrom(['gpt', 'oa'], ['mistral', 'mis'], ['grok', 'grok']),
        malformedVariants(chat, chatPaths, usageCounts),
      ),
      async ([[model, provider], { body }]) => {
        gateway.answer(jsonReply(body));
        expectInvalidResponse(await chatCall(model!), provider!);
      },
    );
  });

  it('chat completions that are not a JSON object', async () => {
    await property(
      fc.tuple(fc.constantFrom(['gpt', 'oa'], ['mistral', 'mis']), notAnObjectText),
      async ([[model, provider], text]) => {
        gateway.answer(jsonReply(text));
        expectInvalidResponse(await chatCall(model!), provider!);
      },
    );
  });

  it('chat streams (byte runs, and the presets) with one event of the wrong shape end with an error event', async () => {
    const last = streamEvents.length - 1;
    const broken = fc
      .record({
        target: fc.constantFrom(['gpt', 'oa'], ['mistral', 'mis'], ['grok', 'grok']),
        event: fc.integer({ min: 0, max: last - 1 }),
        path: fc.constantFrom(
          ['id'],
          ['choices'],
          ['choices', 0, 'delta'],
          ['choices', 0, 'delta', 'content'],
          ['choices', 0, 'index'],
          ['created'],
        ),
      })
      .filter(({ event, path }) => valueAt(streamEvents[event], path) !== undefined)
      .chain((pick) => wrongKindOf(valueAt(streamEvents[pick.event], pick.path)).map((value) => ({ ...pick, value })));
    await property(broken, async ({ target: [model, provider], event, path, value }) => {
      gateway.answer({
        chunks: sseFrames(streamEvents.map((e, i) => JSON.stringify(i === event ? setAt(e, path, value) : e))),
      });
      expectStreamFailure(await chatCall(model!, true), provider!);
    });
  });

  it('JSON transcriptions without a text string', async () => {
    await property(wrongKindOf('text'), async (value) => {
      gateway.answer(jsonReply({ text: value, language: 'en' }));
      const form = new FormData();
      form.append('model', 'whisper');
      form.append('file', new Blob([new Uint8Array(64)], { type: 'audio/wav' }), 'a.wav');
      const response = await fetch(`${gateway.url}/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}` },
        body: form,
      });
      expectInvalidResponse(
        {
          status: response.status,
          contentType: response.headers.get('content-type') ?? '',
          text: await response.text(),
        },
        'oa',
      );
    });
  });
});
