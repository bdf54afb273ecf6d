import { createFixtureReader } from '@switchyard/testkit';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import {
  PROPERTY_RUNS,
  expectInvalidResponse,
  jsonReply,
  malformedVariants,
  notAnObjectText,
  useScriptedUpstream,
} from './helpers/malformed-upstream.js';

// Issue #38 item 7 for Deepgram: the `/v1/listen` answer was read by a cast. Generated malformed answers, sent by a mock
// Deepgram API through the real gateway, must each come back as 502 upstream_invalid_response naming the provider, in
// every response format (the JSON, verbose JSON and subtitle paths read different fields).
const KEY = 'sk-switchyard-deepgram-props-0123456789';
const fixtures = createFixtureReader(new URL('../../../packages/provider-deepgram/fixtures/', import.meta.url));
const gateway = useScriptedUpstream(
  (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  dg: { adapter: deepgram, api_key: dg-props-secret-000000, base_url: "${url}" }
models:
  - { id: nova-3, provider: dg }
routing: { max_retries: 0 }
`,
);

const recorded = fixtures.json('deepgram/deepgram-transcription.json');
const paths = [
  ['metadata'],
  ['metadata', 'duration'],
  ['results'],
  ['results', 'channels'],
  ['results', 'channels', 0, 'alternatives'],
  ['results', 'channels', 0, 'alternatives', 0, 'transcript'],
  ['results', 'channels', 0, 'alternatives', 0, 'words'],
  ['results', 'channels', 0, 'alternatives', 0, 'words', 0, 'word'],
  ['results', 'channels', 0, 'alternatives', 0, 'words', 0, 'start'],
  ['results', 'channels', 0, 'alternatives', 0, 'words', 1, 'end'],
] as const;
const property = <T>(arbitrary: fc.Arbitrary<T>, run: (value: T) => Promise<void>) =>
  fc.assert(fc.asyncProperty(arbitrary, run), { numRuns: PROPERTY_RUNS });

async function transcribe(format: string) {
  const form = new FormData();
  form.append('model', 'nova-3');
  form.append('response_format', format);
  form.append('file', new Blob([new Uint8Array(64)], { type: 'audio/wav' }), 'a.wav');
  const response = await fetch(`${gateway.url}/audio/transcriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}` },
    body: form,
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}

describe('Deepgram: malformed upstream answers become 502 upstream_invalid_response', () => {
  it('listen answers with a read field of the wrong kind or a negative duration', async () => {
    const negative = fc.double({ min: -1e6, max: -0.001, noNaN: true }).map((duration) => ({
      body: { ...(recorded as object), metadata: { duration } },
      at: `metadata.duration = ${duration}`,
    }));
    const cases = fc.tuple(
      fc.oneof(malformedVariants(recorded, paths), negative),
      fc.constantFrom('json', 'verbose_json', 'text', 'srt', 'vtt'),
    );
    await property(cases, async ([{ body }, format]) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await transcribe(format), 'dg');
    });
  });

  it('listen answers that are not a JSON object', async () => {
    await property(notAnObjectText, async (body) => {
      gateway.answer(jsonReply(body));
      expectInvalidResponse(await transcribe('json'), 'dg');
    });
  });
});
