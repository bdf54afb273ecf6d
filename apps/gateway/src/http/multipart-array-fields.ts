/**
 * Gives array fields of a multipart form back the `name[]` spelling they were sent with. multer (through
 * append-field) parses `timestamp_granularities[]=word` into `timestamp_granularities: ['word']`; OpenAI's
 * transcription form, which the canonical request follows, names array fields with `[]`
 * (https://platform.openai.com/docs/api-reference/audio/createTranscription). Returns a new object; a field sent
 * both ways keeps the values of both.
 */
export function multipartArrayFields(fields: Record<string, unknown>): Record<string, unknown> {
  const result = new Map<string, unknown>();
  const asArray = (value: unknown) => (Array.isArray(value) ? value : [value]);
  for (const [name, value] of Object.entries(fields)) {
    const key = Array.isArray(value) && !name.endsWith('[]') ? `${name}[]` : name;
    result.set(key, result.has(key) ? [...asArray(result.get(key)), ...asArray(value)] : value);
  }
  return Object.fromEntries(result);
}
