import { chatCompletionChunkSchema, chatCompletionRequestSchema, chatCompletionSchema } from '@switchyard/core';
import { countTokensRequestSchema, messagesRequestSchema } from '@switchyard/front-door-messages';
import { responsesRequestSchema } from '@switchyard/front-door-responses';
import type { DocumentParts, JsonObject } from './document-parts.js';

/**
 * The OpenAPI path items of the three front doors: `POST /v1/chat/completions`, `/v1/responses` (with stored
 * responses and their input items) and `/v1/messages` (with `count_tokens`).
 * @see https://platform.openai.com/docs/api-reference/chat
 * @see https://platform.openai.com/docs/api-reference/responses
 * @see https://docs.anthropic.com/en/api/messages
 */
export function frontDoorPaths({ ref, json, errors, api, idParam }: DocumentParts): Record<string, JsonObject> {
  return {
    '/v1/chat/completions': {
      post: {
        summary: 'Chat completion (JSON, or server-sent events with "stream": true)',
        security: api,
        requestBody: { required: true, ...json(ref('ChatCompletionRequest', chatCompletionRequestSchema, 'input')) },
        responses: {
          '200': {
            description:
              'A chat.completion, or with stream: true a text/event-stream of chat.completion.chunk events ending in data: [DONE]',
            content: {
              'application/json': { schema: ref('ChatCompletion', chatCompletionSchema, 'output') },
              'text/event-stream': {
                schema: { type: 'string' },
                'x-sse-data': ref('ChatCompletionChunk', chatCompletionChunkSchema, 'output'),
              },
            },
          },
          ...errors,
        },
      },
    },
    '/v1/responses': {
      post: {
        summary: 'OpenAI\'s Responses API for every model (JSON, or server-sent Responses events with "stream": true)',
        security: api,
        requestBody: { required: true, ...json(ref('ResponsesRequest', responsesRequestSchema, 'input')) },
        responses: {
          '200': {
            description:
              'A response object, or with stream: true a text/event-stream of Responses events (response.created ... response.completed)',
            content: {
              'application/json': { schema: { type: 'object' } },
              'text/event-stream': { schema: { type: 'string' } },
            },
          },
          ...errors,
        },
      },
    },
    '/v1/responses/{id}': {
      get: {
        summary: 'A stored response of the calling key',
        security: api,
        parameters: [idParam],
        responses: { '200': { description: 'OK', ...json({ type: 'object' }) }, ...errors },
      },
      delete: {
        summary: 'Deletes a stored response of the calling key',
        security: api,
        parameters: [idParam],
        responses: { '200': { description: 'OK', ...json({ type: 'object' }) }, ...errors },
      },
    },
    '/v1/messages': {
      post: {
        summary:
          "Anthropic's Messages API for every model (key in x-api-key or Authorization; errors in Anthropic's shape)",
        security: api,
        requestBody: { required: true, ...json(ref('MessagesRequest', messagesRequestSchema, 'input')) },
        responses: {
          '200': {
            description:
              "An Anthropic message, or with stream: true a text/event-stream of Anthropic's events (message_start ... message_stop)",
            content: {
              'application/json': { schema: { type: 'object' } },
              'text/event-stream': { schema: { type: 'string' } },
            },
          },
          default: {
            description: 'Anthropic-shaped error {"type":"error","error":{"type","message"}}',
            ...json({ type: 'object' }),
          },
        },
      },
    },
    '/v1/messages/count_tokens': {
      post: {
        summary: 'Estimated input tokens of a Messages request',
        security: api,
        requestBody: { required: true, ...json(ref('CountTokensRequest', countTokensRequestSchema, 'input')) },
        responses: {
          '200': {
            description: 'OK',
            ...json({ type: 'object', properties: { input_tokens: { type: 'integer' } }, required: ['input_tokens'] }),
          },
          default: { description: 'Anthropic-shaped error', ...json({ type: 'object' }) },
        },
      },
    },
    '/v1/responses/{id}/input_items': {
      get: {
        summary: 'The input items of a stored response (order asc|desc, limit 1..100, after)',
        security: api,
        parameters: [
          idParam,
          { name: 'order', in: 'query', schema: { enum: ['asc', 'desc'] } },
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
          { name: 'after', in: 'query', schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'OK', ...json({ type: 'object' }) }, ...errors },
      },
    },
  };
}
