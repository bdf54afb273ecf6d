import { createHash } from 'node:crypto';

/** What identifies one cacheable request: its operation, the validated request and who may see the answer. */
export interface CacheKeyInput {
  /** `chatCompletions` or `embeddings`. */
  operation: string;
  /** The validated request body (model, messages or input, tools, sampling parameters, unknown fields...). */
  request: Record<string, unknown>;
  /** Who may read the entry: a caller's identity (e.g. a hash of its key), or `''` for entries shared by every key. */
  scope: string;
}

/** Request fields that never change the answer's content: dropped before hashing. */
const IGNORED_FIELDS = new Set(['stream_options']);

/** JSON with object keys sorted at every depth and `undefined` members left out, so key order never matters. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const members: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${members.join(',')}}`;
}

/**
 * The cache key of a request: `<operation>:<SHA-256 hex>` of the canonical JSON of the normalised request (every
 * field but `stream_options`, whose `include_usage` only decides whether a usage chunk is replayed; `stream` as a
 * boolean) and the scope. Two requests get the same key exactly when they ask the same of the same model, whatever
 * the order of their JSON members. The scope is hashed in, never stored in clear.
 */
export function responseCacheKey({ operation, request, scope }: CacheKeyInput): string {
  const normalised: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(request)) if (!IGNORED_FIELDS.has(field)) normalised[field] = value;
  if (operation === 'chatCompletions') normalised.stream = request.stream === true;
  const digest = createHash('sha256')
    .update(canonicalJson({ v: 1, operation, scope, request: normalised }))
    .digest('hex');
  return `${operation}:${digest}`;
}
