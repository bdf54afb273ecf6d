import { type AdapterOperation, type Gateway, GatewayError, createGateway } from '@switchyard/core';
import { expect, it } from 'vitest';
import { makeWav } from '../audio/make-wav.js';
import type { AdapterConformanceOptions } from './adapter-conformance-options.js';
import type { OperationCaseContext } from './describe-operation-cases.js';

const MODEL = 'conformance-model';
const PNG = {
  data: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  filename: 'a.png',
  contentType: 'image/png',
};
const WAV = { data: makeWav(), filename: 'speech.wav', contentType: 'audio/wav' };

/** The operations with a matrix column, each with its test label and one valid call through the gateway. */
const CALLS: Partial<Record<AdapterOperation, { label: string; call: (gateway: Gateway) => Promise<unknown> }>> = {
  embeddings: { label: 'embeddings', call: (g) => g.embeddings({ model: MODEL, input: 'x' }) },
  transcriptions: { label: 'transcriptions', call: (g) => g.transcriptions({ model: MODEL }, WAV) },
  translations: { label: 'audio translations', call: (g) => g.translations({ model: MODEL }, WAV) },
  speech: { label: 'speech', call: (g) => g.speech({ model: MODEL, input: 'x', voice: 'alloy' }) },
  imageGenerations: { label: 'image generations', call: (g) => g.imageGenerations({ model: MODEL, prompt: 'x' }) },
  moderations: { label: 'moderations', call: (g) => g.moderations({ model: MODEL, input: 'x' }) },
  imageEdits: { label: 'image edits', call: (g) => g.imageEdits({ model: MODEL, prompt: 'x' }, [PNG], undefined) },
  imageVariations: { label: 'image variations', call: (g) => g.imageVariations({ model: MODEL }, PNG) },
};

/**
 * The conformance cases of the operations an adapter lists as `unsupported` (those with a column in the matrix:
 * embeddings, transcriptions, audio translations, speech, image generations, moderations, image edits, image
 * variations): a valid request for each, sent through a gateway (core's `createGateway`) whose one model is served by
 * the adapter, is refused with 400 `unsupported_operation` naming `model`, and nothing reaches the upstream. The matrix
 * shows these cells as "not supported".
 */
export function describeUnsupportedOperationCases(
  options: AdapterConformanceOptions,
  cases: OperationCaseContext,
): void {
  for (const operation of options.unsupported) {
    const entry = CALLS[operation];
    if (!entry) continue;
    it(`${entry.label}: not supported (the gateway answers 400 unsupported_operation)`, async () => {
      const gateway = createGateway({
        providers: { conformance: cases.adapter() },
        models: [{ id: MODEL, provider: 'conformance', upstream: options.model }],
      });
      try {
        const error = await entry.call(gateway).then(
          () => new Error('expected the call to be refused'),
          (e: unknown) => e,
        );
        expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
        expect((error as GatewayError).toJSON().error).toMatchObject({ code: 'unsupported_operation', param: 'model' });
        expect((error as GatewayError).status).toBe(400);
        expect(cases.upstream().requests, 'nothing reached the upstream').toHaveLength(0);
      } finally {
        await gateway.close();
      }
    });
  }
}
