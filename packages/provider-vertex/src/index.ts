export { VERTEX_ANTHROPIC_VERSION, type VertexOptions, createVertex } from './create-vertex.js';
export { convertToVertexEmbeddingRequest, convertVertexEmbeddingResponse, type VertexEmbeddingRequest, type VertexEmbeddingResponse } from './vertex-embeddings.js';
export { convertImagenResponse, convertToImagenRequest } from './vertex-imagen.js';
export { CLOUD_PLATFORM_SCOPE, type ServiceAccountKey, type VertexTokenSource, createVertexTokenSource, readCredentials } from './vertex-token-source.js';
export { type VertexSettings, vertexSettingsSchema, switchyardProvider } from './switchyard-provider.js';
