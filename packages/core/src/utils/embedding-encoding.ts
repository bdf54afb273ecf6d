/**
 * Encodes a float vector as OpenAI's `encoding_format: "base64"` does: little-endian float32 bytes, base64.
 * @see https://platform.openai.com/docs/api-reference/embeddings/create#embeddings-create-encoding_format
 */
export function encodeEmbeddingBase64(vector: readonly number[]): string {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength).toString('base64');
}

/** Decodes a base64 little-endian float32 embedding into numbers. */
export function decodeEmbeddingBase64(encoded: string): number[] {
  const bytes = Buffer.from(encoded, 'base64');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number>(bytes.byteLength >>> 2);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
