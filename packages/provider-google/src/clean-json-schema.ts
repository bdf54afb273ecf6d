const UNSUPPORTED = new Set([
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'definitions',
  'additionalProperties',
  'patternProperties',
  'unevaluatedProperties',
  'strict',
  'examples',
  'default',
  'const',
]);

/**
 * Makes an OpenAI (JSON Schema) tool or response schema acceptable to Gemini's OpenAPI-subset `Schema`: drops
 * keywords Gemini rejects (`$schema`, `additionalProperties`, `$ref`/`$defs`, `default`, ...) at every level, and turns
 * `const` into a one-value `enum`. Each dropped keyword's path (e.g. `properties.address.additionalProperties`) is
 * pushed onto `dropped`, so that the caller can say what was dropped.
 * @see https://ai.google.dev/api/caching#Schema
 */
export function cleanJsonSchema(schema: unknown, dropped: string[] = [], path = ''): unknown {
  if (Array.isArray(schema)) return schema.map((item, i) => cleanJsonSchema(item, dropped, `${path}[${i}]`));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  const at = (key: string) => (path ? `${path}.${key}` : key);
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'const') out.enum = [value];
    else if (UNSUPPORTED.has(key)) dropped.push(at(key));
    else if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, cleanJsonSchema(sub, dropped, `${at(key)}.${name}`)]),
      );
    } else out[key] = cleanJsonSchema(value, dropped, at(key));
  }
  return out;
}
