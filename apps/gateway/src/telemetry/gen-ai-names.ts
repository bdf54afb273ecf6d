/**
 * `gen_ai.operation.name` of each gateway operation (OpenTelemetry GenAI semantic conventions; operations the
 * conventions do not name keep a descriptive custom value).
 * @see https://opentelemetry.io/docs/specs/semconv/gen-ai/gen-ai-spans/
 */
export const GEN_AI_OPERATION: Record<string, string> = {
  chatCompletions: 'chat',
  completions: 'text_completion',
  embeddings: 'embeddings',
  imageGenerations: 'generate_content',
  imageEdits: 'generate_content',
  imageVariations: 'generate_content',
  speech: 'text_to_speech',
  transcriptions: 'speech_to_text',
  translations: 'speech_translation',
  rerank: 'rerank',
  moderations: 'moderation',
};

/** The same for API operations as named in metrics (`chat.completions`, ...). */
export const GEN_AI_OPERATION_OF_ROUTE: Record<string, string> = {
  'chat.completions': 'chat',
  completions: 'text_completion',
  embeddings: 'embeddings',
  'images.generations': 'generate_content',
  'images.edits': 'generate_content',
  'images.variations': 'generate_content',
  'audio.speech': 'text_to_speech',
  'audio.transcriptions': 'speech_to_text',
  'audio.translations': 'speech_translation',
  rerank: 'rerank',
  moderations: 'moderation',
};

const PROVIDER_NAMES: Record<string, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'gcp.gemini',
  vertex: 'gcp.vertex_ai',
  bedrock: 'aws.bedrock',
  azure: 'azure.ai.openai',
};

/**
 * `gen_ai.provider.name` for an adapter (its `adapter` field): the conventions' well-known value when there is one
 * (`openai`, `anthropic`, `gcp.gemini`, `gcp.vertex_ai`, `aws.bedrock`, `azure.ai.openai`), else the adapter's name.
 */
export function genAiProviderName(adapter: string | undefined): string {
  return (adapter && PROVIDER_NAMES[adapter]) ?? adapter ?? 'unknown';
}
