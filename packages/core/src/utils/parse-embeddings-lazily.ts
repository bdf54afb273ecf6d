/**
 * Parsing an embeddings answer of float arrays (OpenAI `POST /v1/embeddings`, `encoding_format: float`) without
 * building its numbers until someone reads them. `JSON.parse` of a 16 x 1536 float answer (about 500 KB) costs several
 * milliseconds, mostly for the 24,576 numbers; a gateway that forwards the answer's bytes unchanged only needs its
 * skeleton (object, model, usage, each item's index) and the certainty that every vector is a well-formed list of
 * numbers. Issue #14 (lean hot path).
 * @see https://platform.openai.com/docs/api-reference/embeddings/object
 */

/** One JSON number whose exponent has at most two digits, so that it is always finite (a float32 never needs more). */
const NUMBER = String.raw`-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d{1,2})?`;

/** `"embedding": [numbers]` outside any string: JSON escapes every quote inside a string, so the key cannot match there. */
const FLOAT_VECTOR = new RegExp(String.raw`"embedding"\s*:\s*(\[\s*(?:${NUMBER}\s*(?:,\s*${NUMBER}\s*)*)?\])`, 'g');

/** The marker each vector is replaced by in the skeleton: a control character cannot appear unescaped in JSON text. */
const marker = (index: number) => `\u0000switchyard-vector-${index}`;

/** Marks an item whose `embedding` is a float vector not parsed yet (see {@link isUnreadFloatVector}). */
const LAZY = Symbol('switchyard.lazyVector');

/**
 * Parses the JSON text of an embeddings answer whose vectors are float arrays, leaving every `data[i].embedding` as
 * a lazy property: the array is parsed from its own slice of `text` the first time it is read (or replaced when
 * written), so `JSON.stringify`, spreads and reads all see the real numbers. `isPlain` checks the skeleton first (each
 * vector is then a placeholder string; the vectors' syntax was checked here). Returns undefined, and the caller parses
 * `text` whole, when the text is not JSON, `isPlain` refuses it, or its vectors are not all float lists that map one
 * to one onto `data` (base64 strings, a stray `embedding` key elsewhere, exponents of three digits…). The returned
 * value has the shape `{ object, model, data: [{ object, index, embedding }], usage, ... }`, unknown fields kept.
 */
export function parseEmbeddingsLazily(text: string, isPlain: (skeleton: unknown) => boolean): unknown {
  const vectors: string[] = [];
  const skeletonText = text.replace(
    FLOAT_VECTOR,
    (_match, vector: string) => `"embedding":"${marker(vectors.push(vector) - 1).replace('\u0000', '\\u0000')}"`,
  );
  if (vectors.length === 0) return undefined;
  let skeleton: unknown;
  try {
    skeleton = JSON.parse(skeletonText);
  } catch {
    return undefined;
  }
  const data = (skeleton as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || data.length !== vectors.length) return undefined;
  for (let i = 0; i < data.length; i++) {
    const item = data[i] as { embedding?: unknown } | null;
    if (typeof item !== 'object' || item === null || item.embedding !== marker(i)) return undefined;
  }
  if (!isPlain(skeleton)) return undefined;
  for (let i = 0; i < data.length; i++) defineLazyVector(data[i] as object, vectors[i]!);
  return skeleton;
}

/**
 * True when `item.embedding` is a float vector from {@link parseEmbeddingsLazily} that nobody has read or replaced
 * yet: an array of numbers, known without parsing it.
 */
export function isUnreadFloatVector(item: object): boolean {
  return (item as { [LAZY]?: boolean })[LAZY] === true;
}

/** Makes `item.embedding` parse `vector` (JSON text of a number array) on first read; a write replaces it. */
function defineLazyVector(item: object, vector: string): void {
  const settle = (value: unknown) => {
    Object.defineProperty(item, 'embedding', { value, writable: true, enumerable: true, configurable: true });
    (item as { [LAZY]?: boolean })[LAZY] = false;
  };
  Object.defineProperty(item, LAZY, { value: true, writable: true, enumerable: false, configurable: true });
  Object.defineProperty(item, 'embedding', {
    enumerable: true,
    configurable: true,
    get() {
      const value = JSON.parse(vector) as number[];
      settle(value);
      return value;
    },
    set(value: unknown) {
      settle(value);
    },
  });
}
