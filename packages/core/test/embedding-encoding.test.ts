import { describe, expect, it } from 'vitest';
import { normalizeEmbeddings } from '../src/gateway/normalize-embeddings.js';
import { decodeEmbeddingBase64, encodeEmbeddingBase64 } from '../src/utils/embedding-encoding.js';

describe('embedding encoding', () => {
  const vector = [0.0057293195, -0.012727811, 0.020042092, 1, -1];

  it('round-trips through base64 float32 little-endian', () => {
    expect(decodeEmbeddingBase64(encodeEmbeddingBase64(vector))).toEqual(vector.map(Math.fround));
    expect(encodeEmbeddingBase64([1])).toBe(Buffer.from([0, 0, 0x80, 0x3f]).toString('base64'));
  });

  it('converts an answer to the requested encoding_format', () => {
    const answer = () => ({
      object: 'list' as const,
      model: 'e',
      data: [{ object: 'embedding' as const, index: 0, embedding: vector }],
      usage: { prompt_tokens: 3, total_tokens: 0 },
    });
    const base64 = normalizeEmbeddings(answer(), 'base64');
    expect(typeof base64.data[0]!.embedding).toBe('string');
    expect(base64.usage.total_tokens).toBe(3);
    expect(normalizeEmbeddings(base64, 'float').data[0]!.embedding).toEqual(vector.map(Math.fround));
  });
});
