import {
  type ChatCompletion,
  type ProviderAdapter,
  type TextCompletion,
  chatRequestOf,
  completionOfChat,
  textCompletionSchema,
} from '@switchyard/core';
import { expect, it } from 'vitest';
import type { AdapterConformanceOptions } from './adapter-conformance-options.js';
import type { OperationCaseContext } from './describe-operation-cases.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7, 7]);

function matches(actual: string, expected: string | RegExp): void {
  if (typeof expected === 'string') expect(actual).toBe(expected);
  else expect(actual).toMatch(expected);
}

/** True when the image reached the upstream: its bytes in a multipart body, or base64 in a JSON one. */
function carriesImage(cases: OperationCaseContext, route: string): boolean {
  const sent = cases.upstream().requestsTo(route)[0]!;
  return sent.body.includes(Buffer.from(PNG)) || sent.bodyText.includes(Buffer.from(PNG).toString('base64'));
}

function keyInHeaderOnly(cases: OperationCaseContext, route: string): void {
  const sent = cases.upstream().requestsTo(route)[0];
  expect(sent, 'the adapter called the recorded route').toBeDefined();
  expect(Object.values(sent!.headers).flat().join('\n')).toContain(cases.apiKey);
  expect(JSON.stringify(sent!.query) + sent!.path).not.toContain(cases.apiKey);
}

/**
 * The conformance cases of legacy completions and image edits and variations, registered inside
 * describeAdapterConformance's block: a pass-through of `completions` (a whole `text_completion` and a stream, each
 * checked with core's `textCompletionSchema`), or, for an adapter with chat but without `completions`, core's
 * translation through chat on its `chat.completion` exchange (the prompt sent as the user message, the answer's text
 * the chat content); `imageEdits` (the image reaches the upstream, the image count) and `imageVariations` likewise.
 */
export function describeLegacyAndImageEditCases(options: AdapterConformanceOptions, cases: OperationCaseContext): void {
  const legacy = options.completions;
  if (legacy) {
    it('translates a legacy completion (native pass-through): text_completion, finish_reason, usage', async () => {
      cases.upstream().route(legacy.completion.route, legacy.completion.reply);
      const result = (await cases.adapter().completions!(
        { model: options.model, prompt: 'Invent a new holiday.', max_tokens: 16 },
        cases.context(),
      )) as TextCompletion;
      expect(textCompletionSchema.safeParse(result).success).toBe(true);
      matches(result.choices[0]!.text, legacy.completion.expect.text);
      expect(result.choices[0]!.finish_reason).toBe(legacy.completion.expect.finish_reason);
      if (legacy.completion.expect.usage) expect(result.usage).toMatchObject(legacy.completion.expect.usage);
      keyInHeaderOnly(cases, legacy.completion.route);
      expect(cases.upstream().requestsTo(legacy.completion.route)[0]!.json).toMatchObject({
        prompt: 'Invent a new holiday.',
        max_tokens: 16,
      });
    });
    it('translates a legacy completion stream (native pass-through) chunk by chunk', async () => {
      cases.upstream().route(legacy.stream.route, legacy.stream.reply);
      const result = await cases.adapter().completions!(
        { model: options.model, prompt: 'Invent a new holiday.', stream: true },
        cases.context(),
      );
      const chunks: TextCompletion[] = [];
      for await (const chunk of result as AsyncIterable<TextCompletion>) chunks.push(chunk);
      expect(chunks.every((c) => c.object === 'text_completion')).toBe(true);
      matches(chunks.map((c) => c.choices[0]?.text ?? '').join(''), legacy.stream.expect.text);
      expect(chunks.flatMap((c) => c.choices).at(-1)!.finish_reason).toBe(legacy.stream.expect.finish_reason);
    });
  } else if (options.chat && !options.unsupported.includes('chatCompletions')) {
    const exchange = options.chat.completion;
    it('translates a legacy completion through chat: the prompt as the user message, the content as its text', async () => {
      cases.upstream().route(exchange.route, exchange.reply);
      const adapter: ProviderAdapter = cases.adapter();
      const request = chatRequestOf(
        { model: options.model, prompt: 'Invent a new holiday.' },
        'Invent a new holiday.',
        () => {},
      );
      const answer = (await adapter.chatCompletions!(request, cases.context())) as ChatCompletion;
      const completion = completionOfChat([answer], 1);
      expect(textCompletionSchema.safeParse(completion).success).toBe(true);
      matches(completion.choices[0]!.text, exchange.expect.content);
      expect(JSON.stringify(cases.upstream().requestsTo(exchange.route)[0]!.bodyText)).toContain(
        'Invent a new holiday.',
      );
    });
  }
  const image = { data: PNG, filename: 'otter.png', contentType: 'image/png' };
  if (options.imageEdits) {
    const exchange = options.imageEdits;
    it('translates an image edit and sends the image', async () => {
      cases.upstream().route(exchange.route, exchange.reply);
      const result = await cases.adapter().imageEdits!(
        { model: options.imageModel ?? options.model, prompt: 'Add a hat', images: [image] },
        cases.context(),
      );
      expect(Symbol.asyncIterator in result).toBe(false);
      const data = (result as { data: { b64_json?: string; url?: string }[] }).data;
      expect(data).toHaveLength(exchange.expect.count);
      for (const item of data) expect(item.b64_json ?? item.url).toEqual(expect.any(String));
      keyInHeaderOnly(cases, exchange.route);
      expect(carriesImage(cases, exchange.route), 'the image reached the upstream').toBe(true);
    });
  }
  if (options.imageVariations) {
    const exchange = options.imageVariations;
    it('translates an image variation and sends the image', async () => {
      cases.upstream().route(exchange.route, exchange.reply);
      const result = await cases.adapter().imageVariations!(
        { model: options.imageModel ?? options.model, image },
        cases.context(),
      );
      expect(result.data).toHaveLength(exchange.expect.count);
      keyInHeaderOnly(cases, exchange.route);
      expect(carriesImage(cases, exchange.route), 'the image reached the upstream').toBe(true);
    });
  }
}
