const UNSUPPORTED = new Set(['$schema', '$id', '$ref', '$defs', 'definitions', 'additionalProperties', 'patternProperties', 'unevaluatedProperties', 'strict', 'examples', 'default', 'const']);

/**
 * Makes an OpenAI (JSON Schema) tool or response schema acceptable to Gemini's OpenAPI-subset `Schema`: drops
 * keywords Gemini rejects (`$schema`, `additionalProperties`, `$ref`/`$defs`, `default`, ...) at every level, and turns
 * `const` into a one-value `enum`.
 * @see https://ai.google.dev/api/caching#Schema
 */
export function cleanJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(cleanJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'const') out.enum = [value];
    else if (!UNSUPPORTED.has(key)) out[key] = key === 'properties' && value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, cleanJsonSchema(sub)]))
      : cleanJsonSchema(value);
  }
  return out;
}
