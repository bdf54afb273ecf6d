import { GatewayError } from '@switchyard/core';
import { testkitFixtures } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import {
  convertImagenResponse,
  convertToImagenRequest,
  convertToVertexEmbeddingRequest,
  convertVertexEmbeddingResponse,
} from '../src/index.js';

describe('Vertex embeddings', () => {
  it('sends one instance per input and dimensions as outputDimensionality', () => {
    expect(
      convertToVertexEmbeddingRequest({
        model: 'text-embedding-005',
        input: ['a', 'b'],
        dimensions: 256,
        task_type: 'RETRIEVAL_QUERY',
      } as never),
    ).toEqual({
      instances: [
        { content: 'a', task_type: 'RETRIEVAL_QUERY' },
        { content: 'b', task_type: 'RETRIEVAL_QUERY' },
      ],
      parameters: { outputDimensionality: 256 },
    });
  });

  it('reads the recorded answer: vectors in order, token counts summed', () => {
    const res = convertVertexEmbeddingResponse(
      testkitFixtures().json('google-vertex/google-vertex-embedding.json'),
      'text-embedding-005',
    );
    expect(res.data.map((d) => d.index)).toEqual([0, 1]);
    expect((res.data[0]!.embedding as number[])[0]).toBe(-0.017999587580561638);
    expect(res.usage).toEqual({ prompt_tokens: 11, total_tokens: 11 });
  });
});

describe('Imagen', () => {
  it('maps n and size to sampleCount and aspect ratio', () => {
    expect(
      convertToImagenRequest({ model: 'imagen-3.0-generate-002', prompt: 'a fox', n: 2, size: '1792x1024' }),
    ).toEqual({ instances: [{ prompt: 'a fox' }], parameters: { sampleCount: 2, aspectRatio: '16:9' } });
  });

  it('rejects url answers and sizes of another ratio, naming the field', () => {
    expect(() => convertToImagenRequest({ model: 'm', prompt: 'x', response_format: 'url' })).toThrow(
      expect.objectContaining({ param: 'response_format' }),
    );
    expect(() => convertToImagenRequest({ model: 'm', prompt: 'x', size: '1000x300' })).toThrow(
      expect.objectContaining({ param: 'size' }),
    );
  });

  it('returns base64 images and a content_filter 400 when all were filtered', () => {
    expect(convertImagenResponse({ predictions: [{ bytesBase64Encoded: 'AAA' }] }).data).toEqual([{ b64_json: 'AAA' }]);
    let error: unknown;
    try {
      convertImagenResponse({ predictions: [{ raiFilteredReason: 'Filtered by safety settings.' }] });
    } catch (e) {
      error = e;
    }
    expect(GatewayError.isInstance(error) && error.code).toBe('content_filter');
  });
});
