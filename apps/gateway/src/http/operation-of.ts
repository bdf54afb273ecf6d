const OPERATIONS: Record<string, string> = {
  '/chat/completions': 'chat.completions',
  '/completions': 'completions',
  '/embeddings': 'embeddings',
  '/audio/transcriptions': 'audio.transcriptions',
  '/audio/translations': 'audio.translations',
  '/audio/speech': 'audio.speech',
  '/images/generations': 'images.generations',
  '/images/edits': 'images.edits',
  '/images/variations': 'images.variations',
  '/models': 'models',
  '/usage': 'usage',
  '/messages': 'messages',
  '/messages/count_tokens': 'messages.count_tokens',
  '/responses': 'responses',
  '/rerank': 'rerank',
  '/moderations': 'moderations',
};

/**
 * The operation name of an API path relative to `/v1` (`/chat/completions` -> `chat.completions`, `/models/x` ->
 * `models`), named after the OpenAI SDK's resources; `other` for anything else, so metric labels stay bounded.
 */
export function operationOf(path: string): string {
  const exact = OPERATIONS[path];
  if (exact) return exact;
  if (path.startsWith('/models/')) return 'models';
  return 'other';
}
