export type * from './bedrock-types.js';
export * from './bedrock-api.js';
export { type EmbeddingInvocation, planBedrockEmbeddings } from './bedrock-embeddings.js';
export {
  applyBedrockReasoning,
  BEDROCK_REASONING_FORMAT,
  bedrockReasoningBlocks,
  bedrockReasoningDetail,
} from './bedrock-reasoning.js';
export { convertBedrockImageResponse, convertToBedrockImageRequest } from './bedrock-images.js';
export {
  NOVA_EDIT_PARAMETERS,
  NOVA_VARIATION_PARAMETERS,
  convertToNovaEditRequest,
  convertToNovaVariationRequest,
} from './nova-canvas-edits.js';
export { convertConverseResponse } from './convert-converse-response.js';
export { type ConverseStreamOptions, convertConverseStream } from './convert-converse-stream.js';
export { convertToConverseMessages } from './convert-to-converse-messages.js';
export { convertToConverseRequest } from './convert-to-converse-request.js';
export { type BedrockOptions, createBedrock } from './create-bedrock.js';
export { decodeEventStream } from './decode-event-stream.js';
export { mapBedrockError, mapBedrockException } from './map-bedrock-error.js';
export { mapConverseStopReason } from './map-converse-stop-reason.js';
export { mapConverseUsage } from './map-converse-usage.js';
export { type AwsCredentials, type AwsRequestSigner, createAwsRequestSigner } from './sign-aws-request.js';
export { type BedrockSettings, bedrockSettingsSchema, switchyardProvider } from './switchyard-provider.js';
export {
  BEDROCK_ANTHROPIC_VERSION,
  BEDROCK_BETA_RULES,
  isBedrockClaude,
  toBedrockInvokeBody,
} from './bedrock-anthropic-messages.js';
export { bedrockInvokeEvents } from './bedrock-invoke-stream.js';
