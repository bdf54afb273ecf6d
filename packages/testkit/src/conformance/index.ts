// `@switchyard/testkit/conformance`: the adapter conformance suite (vitest).
export type * from './adapter-conformance-options.js';
export { asChunkedReply } from './as-chunked-reply.js';
export { type AssembledStream, collectChunks } from './collect-chunks.js';
export { conformanceChatRequest } from './conformance-request.js';
export { describeAdapterConformance } from './describe-adapter-conformance.js';
export {
  CONFORMANCE_IMAGE_BASE64,
  CONFORMANCE_SCHEMA_PROPERTY,
  CONFORMANCE_TOOL_RESULT,
  describeChatCapabilityCases,
} from './describe-chat-capability-cases.js';
