import type { EmbeddingResponse } from '../schemas/embedding-response.js';
import { decodeEmbeddingBase64, encodeEmbeddingBase64 } from '../utils/embedding-encoding.js';
import { isUnreadFloatVector } from '../utils/parse-embeddings-lazily.js';
import { forgetJsonText } from '../utils/raw-json-text.js';

/**
 * Converts every vector of an embeddings answer to the `encoding_format` the client asked for
 * (`float` arrays by default, or base64 little-endian float32), whatever the adapter returned, and makes
 * `usage.total_tokens` at least `prompt_tokens`. Mutates and returns `response`; when it changed anything, the
 * upstream's JSON text remembered for it is forgotten (see `rememberJsonText`), else that text is what the client gets.
 */
export function normalizeEmbeddings(
  response: EmbeddingResponse,
  encodingFormat: 'float' | 'base64' | undefined,
): EmbeddingResponse {
  const wantBase64 = encodingFormat === 'base64';
  let changed = false;
  for (const item of response.data) {
    // A float vector passed through unparsed (see `parseEmbeddingsLazily`) stays unparsed when floats were asked for.
    if (!wantBase64 && isUnreadFloatVector(item)) continue;
    if (wantBase64 && Array.isArray(item.embedding)) {
      item.embedding = encodeEmbeddingBase64(item.embedding);
      changed = true;
    } else if (!wantBase64 && typeof item.embedding === 'string') {
      item.embedding = decodeEmbeddingBase64(item.embedding);
      changed = true;
    }
  }
  if (response.usage && response.usage.total_tokens < response.usage.prompt_tokens) {
    response.usage.total_tokens = response.usage.prompt_tokens;
    changed = true;
  }
  if (changed) forgetJsonText(response);
  return response;
}
