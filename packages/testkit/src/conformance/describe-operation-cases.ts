import { type AdapterCallContext, GatewayError, type ProviderAdapter } from '@switchyard/core';
import { expect, it } from 'vitest';
import { makeWav } from '../audio/make-wav.js';
import type { MockUpstream, RecordedRequest } from '../mock-upstream/index.js';
import type { AdapterConformanceOptions, RecordedExchange } from './adapter-conformance-options.js';

/** OpenAI's moderation categories: every result carries each of them (CreateModerationResponse). */
const OPENAI_MODERATION_CATEGORIES = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
];

/** What the operation cases need from the enclosing suite (created in its `beforeAll`). */
export interface OperationCaseContext {
  upstream(): MockUpstream;
  adapter(): ProviderAdapter;
  /** The secret key the adapter was built with; it must travel in a header and never show in errors. */
  apiKey: string;
  context(signal?: AbortSignal): AdapterCallContext;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

function keyInHeaderOnly(sent: RecordedRequest | undefined, apiKey: string): void {
  expect(sent, 'the adapter called the recorded route').toBeDefined();
  expect(Object.values(sent!.headers).flat().join('\n')).toContain(apiKey);
  expect(JSON.stringify(sent!.query) + sent!.path).not.toContain(apiKey);
}

async function drain(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

/**
 * The conformance cases of the non-chat operations, registered inside describeAdapterConformance's block for each
 * exchange the options give: transcriptions and translations (the file reaches the upstream, `json` text), speech (audio streamed with
 * its content type, byte for byte), image generation (the image count); for each, the key travels in a header only,
 * a connection reset is a 502, and an abort closes the upstream request. `operationError` checks error mapping
 * (status, OpenAI shape, no key) for adapters without chat.
 */
export function describeOperationCases(options: AdapterConformanceOptions, cases: OperationCaseContext): void {
  const wav = makeWav();
  const calls: { name: string; exchange: RecordedExchange; call: (signal?: AbortSignal) => Promise<unknown> }[] = [];
  if (options.transcriptions) {
    const exchange = options.transcriptions;
    const call = (signal?: AbortSignal) =>
      cases.adapter().transcriptions!(
        { model: options.model, file: { data: wav, filename: 'speech.wav', contentType: 'audio/wav' } },
        cases.context(signal),
      );
    calls.push({ name: 'transcription', exchange, call });
    it('translates a transcription (json) and sends the audio', async () => {
      cases.upstream().route(exchange.route, exchange.reply);
      const result = await call();
      expect(result.kind).toBe('json');
      const text = (result as { body: { text: string } }).body.text;
      if (typeof exchange.expect.text === 'string') expect(text).toBe(exchange.expect.text);
      else expect(text).toMatch(exchange.expect.text);
      const sent = cases.upstream().requestsTo(exchange.route)[0];
      keyInHeaderOnly(sent, cases.apiKey);
      expect(sent!.body.includes(wav), 'the uploaded audio reached the upstream').toBe(true);
    });
  }
  if (options.translations) {
    const exchange = options.translations;
    const call = (signal?: AbortSignal) =>
      cases.adapter().translations!(
        { model: options.model, file: { data: wav, filename: 'speech.wav', contentType: 'audio/wav' } },
        cases.context(signal),
      );
    calls.push({ name: 'translation', exchange, call });
    it('translates an audio translation (json) and sends the audio', async () => {
      cases.upstream().route(exchange.route, exchange.reply);
      const result = await call();
      expect(result.kind).toBe('json');
      const text = (result as { body: { text: string } }).body.text;
      if (typeof exchange.expect.text === 'string') expect(text).toBe(exchange.expect.text);
      else expect(text).toMatch(exchange.expect.text);
      const sent = cases.upstream().requestsTo(exchange.route)[0];
      keyInHeaderOnly(sent, cases.apiKey);
      expect(sent!.body.includes(wav), 'the uploaded audio reached the upstream').toBe(true);
    });
  }
  if (options.speech) {
    const exchange = options.speech;
    const call = (signal?: AbortSignal) =>
      cases.adapter().speech!(
        { model: options.model, input: 'Hello from the conformance suite', voice: exchange.voice ?? 'alloy' },
        cases.context(signal),
      );
    calls.push({ name: 'speech', exchange, call });
    it('translates speech and streams the audio back byte for byte', async () => {
      cases.upstream().route(exchange.route, exchange.reply);
      const result = await call();
      if (typeof exchange.expect.contentType === 'string') expect(result.contentType).toBe(exchange.expect.contentType);
      else expect(result.contentType).toMatch(exchange.expect.contentType);
      expect((await drain(result.body)).equals(Buffer.from(exchange.expect.bytes))).toBe(true);
      keyInHeaderOnly(cases.upstream().requestsTo(exchange.route)[0], cases.apiKey);
    });
  }
  if (options.imageGenerations) {
    const exchange = options.imageGenerations;
    const call = (signal?: AbortSignal) =>
      cases.adapter().imageGenerations!(
        { model: options.imageModel ?? options.model, prompt: 'A fox in the snow', n: exchange.expect.count },
        cases.context(signal),
      );
    calls.push({ name: 'image generation', exchange, call });
    it('translates an image generation', async () => {
      cases.upstream().route(exchange.route, exchange.reply);
      const result = await call();
      expect(result.data).toHaveLength(exchange.expect.count);
      for (const image of result.data) expect(image.b64_json ?? image.url).toEqual(expect.any(String));
      keyInHeaderOnly(cases.upstream().requestsTo(exchange.route)[0], cases.apiKey);
    });
  }
  if (options.moderations) {
    const exchange = options.moderations;
    const call = (signal?: AbortSignal) =>
      cases.adapter().moderations!(
        { model: options.model, input: ['I want to kill them.', 'A sunny day.'] },
        cases.context(signal),
      );
    calls.push({ name: 'moderation', exchange, call });
    it("translates a moderation into OpenAI's shape", async () => {
      cases.upstream().route(exchange.route, exchange.reply);
      const result = await call();
      expect(result.results).toHaveLength(exchange.expect.count);
      expect(result.results.map((r) => r.flagged)).toEqual(exchange.expect.flagged);
      for (const r of result.results) {
        for (const category of OPENAI_MODERATION_CATEGORIES) {
          expect(typeof r.categories[category], category).toBe('boolean');
          expect(typeof r.category_scores[category], category).toBe('number');
        }
      }
      const sent = cases.upstream().requestsTo(exchange.route)[0];
      keyInHeaderOnly(sent, cases.apiKey);
      expect(JSON.stringify(sent!.json)).toContain('I want to kill them.');
    });
  }
  for (const { name, exchange, call } of calls) {
    it(`${name}: answers 502 when the upstream resets the connection`, async () => {
      cases.upstream().route(exchange.route, { reset: true });
      const error = await rejection(call());
      expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
      expect((error as GatewayError).status).toBe(502);
    });
    it(`${name}: stops at once and closes the upstream request when aborted`, async () => {
      cases.upstream().route(exchange.route, { hang: true });
      const controller = new AbortController();
      const pending = rejection(call(controller.signal));
      await expect.poll(() => cases.upstream().requestsTo(exchange.route).length).toBe(1);
      controller.abort(new Error('client gone'));
      await pending;
      await expect
        .poll(() => cases.upstream().requestsTo(exchange.route)[0]?.closedByClient, { timeout: 5000 })
        .toBe(true);
    });
  }
  const first = calls[0];
  if (options.operationError && first) {
    const failure = options.operationError;
    it(`${first.name}: maps an upstream error to its status in OpenAI shape, without the key`, async () => {
      cases.upstream().route(failure.route, failure.reply);
      const error = await rejection(first.call());
      expect(GatewayError.isInstance(error)).toBe(true);
      expect((error as GatewayError).status).toBe(failure.expect.status);
      const body = (error as GatewayError).toJSON();
      expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
      if (failure.expect.message) expect(body.error.message).toMatch(failure.expect.message);
      expect(JSON.stringify(body) + (error as GatewayError).message).not.toContain(cases.apiKey);
    });
  }
}
