export { VERTEX_ANTHROPIC_VERSION, VERTEX_BETA_RULES, type VertexOptions, createVertex } from './create-vertex.js';
export {
  VERTEX_EMBEDDING_PARAMETERS,
  convertToVertexEmbeddingRequest,
  convertVertexEmbeddingResponse,
  type VertexEmbeddingRequest,
} from './vertex-embeddings.js';
export { type VertexEmbeddingResponse, vertexEmbeddingResponseSchema } from './vertex-api.js';
/** Imagen's request and answer conversion, shared with the Gemini API adapter (`@switchyard/provider-google`). */
export { convertImagenResponse, convertToImagenRequest } from '@switchyard/provider-google';
export {
  CLOUD_PLATFORM_SCOPE,
  type ServiceAccountKey,
  type VertexTokenSource,
  createVertexTokenSource,
  readCredentials,
} from './vertex-token-source.js';
export { type VertexSettings, vertexSettingsSchema, switchyardProvider } from './switchyard-provider.js';
/** OpenAI's edit mask (transparent = edit) as a black-and-white PNG, shared with the Bedrock adapter (Nova Canvas). */
export { convertOpenAIEditMask } from './imagen-edit.js';
