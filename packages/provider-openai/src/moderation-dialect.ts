import {
  type AdapterCallContext,
  type ModerationRequest,
  type ModerationResponse,
  checkUpstreamShape,
  moderationResponseSchema,
} from '@switchyard/core';

/**
 * How one host speaks `POST /moderations` when it differs from OpenAI: the body to send for an OpenAI moderation
 * request (may throw a 400 GatewayError naming a field the host cannot take), and the host's answer (parsed JSON) in
 * OpenAI's shape (throws 502 `upstream_invalid_response` when it is not of the host's documented shape).
 */
export interface ModerationDialect {
  prepareRequest(request: ModerationRequest, context: AdapterCallContext): Record<string, unknown>;
  readAnswer(provider: string, answer: unknown): ModerationResponse;
}

/** OpenAI's own moderation API: the request as it is; the answer checked against OpenAI's moderation schema. */
export const openAIModerationDialect: ModerationDialect = {
  prepareRequest: (request) => request,
  readAnswer: (provider, answer) => checkUpstreamShape(provider, moderationResponseSchema, answer),
};
