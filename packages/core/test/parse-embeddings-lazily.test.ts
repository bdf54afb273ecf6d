import { describe, expect, it } from 'vitest';
import { normalizeEmbeddings } from '../src/gateway/normalize-embeddings.js';
import { isPlainEmbeddingResponse } from '../src/index.js';
import { isUnreadFloatVector, parseEmbeddingsLazily } from '../src/utils/parse-embeddings-lazily.js';

const answer = (vectors: string[], extra = '') =>
  `{"object": "list", "model": "text-embedding-3-small"${extra}, "data": [${vectors.map((v, i) => `{"object": "embedding", "index": ${i}, "embedding": ${v}}`).join(', ')}], "usage": {"prompt_tokens": 3, "total_tokens": 3}}`;

describe('parseEmbeddingsLazily', () => {
  it('gives the same value as JSON.parse, parsing each vector only when it is read', () => {
    const text = answer(['[0.5, -1, 2.5e-3, 0 ]', '[\n  -0.25,1E+2\n]', '[]']);
    const value = parseEmbeddingsLazily(text, isPlainEmbeddingResponse) as { data: { embedding: number[] }[] };
    expect(value).toBeDefined();
    expect(value.data.map((item) => isUnreadFloatVector(item))).toEqual([true, true, true]);
    expect(value.data[1]!.embedding).toEqual([-0.25, 100]);
    expect(isUnreadFloatVector(value.data[1]!)).toBe(false);
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
    expect(value).toEqual(JSON.parse(text));
  });

  it('lets a vector be replaced before it was read', () => {
    const value = parseEmbeddingsLazily(answer(['[1, 2]']), isPlainEmbeddingResponse) as {
      data: { embedding: unknown }[];
    };
    value.data[0]!.embedding = 'AACAPwAAAEA=';
    expect(value.data[0]!.embedding).toBe('AACAPwAAAEA=');
    expect(isUnreadFloatVector(value.data[0]!)).toBe(false);
  });

  it('keeps an "embedding" that only appears inside a string value', () => {
    const text = answer(['[1]'], ', "note": "say \\"embedding\\": [9] here"');
    expect(parseEmbeddingsLazily(text, isPlainEmbeddingResponse)).toEqual(JSON.parse(text));
  });

  it('leaves to a whole parse what it cannot map or check: base64, bad numbers, huge exponents, stray keys, a refused shape', () => {
    expect(parseEmbeddingsLazily(answer(['"AACAPw=="']), isPlainEmbeddingResponse)).toBeUndefined();
    expect(parseEmbeddingsLazily(answer(['[1..2]']), isPlainEmbeddingResponse)).toBeUndefined();
    expect(parseEmbeddingsLazily(answer(['[01]']), isPlainEmbeddingResponse)).toBeUndefined();
    expect(parseEmbeddingsLazily(answer(['[1e400]']), isPlainEmbeddingResponse)).toBeUndefined();
    expect(
      parseEmbeddingsLazily(answer(['[1]'], ', "meta": {"embedding": [2]}'), isPlainEmbeddingResponse),
    ).toBeUndefined();
    expect(
      parseEmbeddingsLazily(answer(['[1]']).replace('"usage"', '"usage_"'), isPlainEmbeddingResponse),
    ).toBeUndefined();
    expect(parseEmbeddingsLazily(`${answer(['[1]'])},`, isPlainEmbeddingResponse)).toBeUndefined();
  });

  it('is not read by normalizeEmbeddings when floats were asked for, and is converted when base64 was', () => {
    const floats = parseEmbeddingsLazily(answer(['[1, 2]']), isPlainEmbeddingResponse) as Parameters<
      typeof normalizeEmbeddings
    >[0];
    normalizeEmbeddings(floats, 'float');
    expect(isUnreadFloatVector(floats.data[0]!)).toBe(true);
    const base64 = parseEmbeddingsLazily(answer(['[1, 2]']), isPlainEmbeddingResponse) as Parameters<
      typeof normalizeEmbeddings
    >[0];
    normalizeEmbeddings(base64, 'base64');
    expect(base64.data[0]!.embedding).toBe(Buffer.from(Float32Array.from([1, 2]).buffer).toString('base64'));
  });
});
