import {
  createKeyInputSchema,
  createTeamInputSchema,
  rotateKeyInputSchema,
  updateKeyInputSchema,
  updateTeamInputSchema,
} from '@switchyard/accounts';
import {
  chatCompletionChunkSchema,
  chatCompletionRequestSchema,
  chatCompletionSchema,
  embeddingRequestSchema,
  embeddingResponseSchema,
  errorBodySchema,
  imageGenerationRequestSchema,
  imagesResponseSchema,
  moderationRequestSchema,
  moderationResponseSchema,
  rerankRequestSchema,
  rerankResponseSchema,
  speechRequestSchema,
  transcriptionFieldsSchema,
  translationFieldsSchema,
} from '@switchyard/core';
import { countTokensRequestSchema, messagesRequestSchema } from '@switchyard/front-door-messages';
import { responsesRequestSchema } from '@switchyard/front-door-responses';
import { z } from 'zod';
import { filesAndBatchesPaths } from './batch-paths.js';
import {
  anthropicModelListSchema,
  anthropicModelSchema,
  pricedModelListSchema,
  pricedModelSchema,
} from './model-schemas.js';
import { legacyAndImageEditPaths } from './legacy-and-image-edit-paths.js';
import {
  auditEntrySchema,
  configuredModelSchema,
  createdKeySchema,
  deploymentHealthSchema,
  listOf,
  teamSchema,
  usageRowSchema,
  usageTotalsSchema,
  virtualKeyViewSchema,
} from './admin-schemas.js';

type JsonObject = Record<string, unknown>;

/**
 * Builds the OpenAPI 3.1 document of Switchyard's own routes (`/v1/*`, `/admin/*`, health, metrics) from the zod
 * schemas the gateway validates with (zod 4's JSON Schema output, draft 2020-12, which OpenAPI 3.1 uses as is):
 * requests as their input type, answers as their output type, every error as OpenAI's error body.
 * @see https://spec.openapis.org/oas/v3.1.0
 * @see https://zod.dev/json-schema
 */
export function buildOpenApiDocument(version: string): JsonObject {
  const schemas: Record<string, JsonObject> = {};
  const ref = (name: string, schema: z.ZodType, io: 'input' | 'output') => {
    if (!schemas[name]) {
      const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
        io,
        unrepresentable: 'any',
        target: 'draft-2020-12',
      }) as JsonObject;
      schemas[name] = json;
    }
    return { $ref: `#/components/schemas/${name}` };
  };
  const json = (schema: JsonObject) => ({ content: { 'application/json': { schema } } });
  const error = { description: 'OpenAI-shaped error', ...json(ref('ErrorBody', errorBodySchema, 'output')) };
  const errors = {
    '400': error,
    '401': error,
    '404': error,
    '429': error,
    '500': error,
    '502': error,
    '503': error,
    '504': error,
  };
  const adminErrors = { '400': error, '401': error, '403': error, '404': error };
  const api = [{ gatewayKey: [] }];
  const admin = [{ masterKey: [] }];
  const jsonOperation = (summary: string, request: JsonObject, answer: JsonObject) => ({
    post: {
      summary,
      security: api,
      requestBody: { required: true, ...json(request) },
      responses: { '200': { description: 'OK', ...json(answer) }, ...errors },
    },
  });
  const timeRange = [
    { name: 'from', in: 'query', schema: { type: 'string' }, description: 'ISO-8601 time or unix ms (inclusive)' },
    { name: 'to', in: 'query', schema: { type: 'string' }, description: 'ISO-8601 time or unix ms (exclusive)' },
  ];
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };

  const paths: Record<string, JsonObject> = {
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
    '/v1/embeddings': jsonOperation(
      'Embeddings',
      ref('EmbeddingRequest', embeddingRequestSchema, 'input'),
      ref('EmbeddingResponse', embeddingResponseSchema, 'output'),
    ),
    '/v1/rerank': jsonOperation(
      'Rerank documents by relevance to a query (Cohere shape)',
      ref('RerankRequest', rerankRequestSchema, 'input'),
      ref('RerankResponse', rerankResponseSchema, 'output'),
    ),
    '/v1/moderations': jsonOperation(
      'Classify text and image inputs (model default omni-moderation-latest)',
      ref('ModerationRequest', moderationRequestSchema, 'input'),
      ref('ModerationResponse', moderationResponseSchema, 'output'),
    ),
    '/v1/images/generations': jsonOperation(
      'Image generation',
      ref('ImageGenerationRequest', imageGenerationRequestSchema, 'input'),
      ref('ImagesResponse', imagesResponseSchema, 'output'),
    ),
    ...legacyAndImageEditPaths({ ref, errors, api }),
    '/v1/audio/speech': {
      post: {
        summary: 'Text to speech: audio bytes with the upstream content type',
        security: api,
        requestBody: { required: true, ...json(ref('SpeechRequest', speechRequestSchema, 'input')) },
        responses: {
          '200': {
            description: 'Audio',
            content: { 'audio/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
          ...errors,
        },
      },
    },
    '/v1/audio/transcriptions': {
      post: {
        summary: 'Speech to text (multipart form with the audio file)',
        security: api,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                allOf: [
                  ref('TranscriptionFields', transcriptionFieldsSchema, 'input'),
                  {
                    type: 'object',
                    required: ['file'],
                    properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
                  },
                ],
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'JSON (json, verbose_json, diarized_json) or text (text, srt, vtt)',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
              },
              'text/plain': { schema: { type: 'string' } },
            },
          },
          ...errors,
        },
      },
    },
    '/v1/audio/translations': {
      post: {
        summary: 'Speech in any language to English text (multipart form with the audio file)',
        security: api,
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                allOf: [
                  ref('TranslationFields', translationFieldsSchema, 'input'),
                  {
                    type: 'object',
                    required: ['file'],
                    properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
                  },
                ],
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'JSON (json, verbose_json) or text (text, srt, vtt)',
            content: {
              'application/json': {
                schema: { type: 'object', required: ['text'], properties: { text: { type: 'string' } } },
              },
              'text/plain': { schema: { type: 'string' } },
            },
          },
          ...errors,
        },
      },
    },
    '/v1/models': {
      get: {
        summary:
          'Models clients may send: configured ids, aliases, what pattern models serve, <provider>/<id>; each with its prices',
        description:
          "OpenAI's list shape, or Anthropic's (one page: `limit` 1-1000, default 20; `after_id`, `before_id`) when the request carries `x-api-key` or `anthropic-version`, authenticated by `x-api-key` then.",
        security: api,
        parameters: [
          {
            name: 'x-api-key',
            in: 'header',
            required: false,
            schema: { type: 'string' },
            description: "A gateway key (Anthropic clients); answers in Anthropic's shape.",
          },
          {
            name: 'anthropic-version',
            in: 'header',
            required: false,
            schema: { type: 'string' },
            description: "Answers in Anthropic's shape.",
          },
          {
            name: 'limit',
            in: 'query',
            required: false,
            schema: { type: 'integer', minimum: 1, maximum: 1000 },
            description: "Anthropic's shape only: entries per page (default 20).",
          },
          {
            name: 'after_id',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: "Anthropic's shape only: the page after this id.",
          },
          {
            name: 'before_id',
            in: 'query',
            required: false,
            schema: { type: 'string' },
            description: "Anthropic's shape only: the page before this id.",
          },
        ],
        responses: {
          '200': {
            description: 'OK',
            ...json({
              oneOf: [
                ref('ModelList', pricedModelListSchema, 'output'),
                ref('AnthropicModelList', anthropicModelListSchema, 'output'),
              ],
            }),
          },
          ...errors,
        },
      },
    },
    '/v1/models/{model}': {
      get: {
        summary: 'One model, with its prices',
        security: api,
        parameters: [{ name: 'model', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'OK',
            ...json({
              oneOf: [ref('Model', pricedModelSchema, 'output'), ref('AnthropicModel', anthropicModelSchema, 'output')],
            }),
          },
          ...errors,
        },
      },
    },
    '/v1/usage': {
      get: {
        summary: "The calling key's own usage totals",
        security: api,
        parameters: [...timeRange, { name: 'group_by', in: 'query', schema: { enum: ['model', 'day'] } }],
        responses: {
          '200': { description: 'OK', ...json(ref('UsageTotalsList', listOf(usageTotalsSchema), 'output')) },
          ...errors,
        },
      },
    },
    '/admin/keys': {
      post: {
        summary: 'Issue a virtual key (the secret is shown once)',
        security: admin,
        requestBody: { required: true, ...json(ref('CreateKeyInput', createKeyInputSchema, 'input')) },
        responses: {
          '201': { description: 'Created', ...json(ref('CreatedKey', createdKeySchema, 'output')) },
          ...adminErrors,
        },
      },
      get: {
        summary: 'Every virtual key',
        security: admin,
        responses: {
          '200': { description: 'OK', ...json(ref('VirtualKeyList', listOf(virtualKeyViewSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/keys/{id}': {
      get: {
        summary: 'One key',
        security: admin,
        parameters: [idParam],
        responses: {
          '200': { description: 'OK', ...json(ref('VirtualKey', virtualKeyViewSchema, 'output')) },
          ...adminErrors,
        },
      },
      patch: {
        summary: "Change a key's fields and limits",
        security: admin,
        parameters: [idParam],
        requestBody: { required: true, ...json(ref('UpdateKeyInput', updateKeyInputSchema, 'input')) },
        responses: {
          '200': { description: 'OK', ...json(ref('VirtualKey', virtualKeyViewSchema, 'output')) },
          ...adminErrors,
        },
      },
      delete: {
        summary: 'Revoke a key',
        security: admin,
        parameters: [idParam],
        responses: {
          '200': { description: 'Revoked', ...json(ref('VirtualKey', virtualKeyViewSchema, 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/keys/{id}/rotate': {
      post: {
        summary: 'Issue a new secret for a key; the old one stays valid for grace_seconds (default 86,400)',
        security: admin,
        parameters: [idParam],
        requestBody: { required: false, ...json(ref('RotateKeyInput', rotateKeyInputSchema, 'input')) },
        responses: {
          '200': { description: 'Rotated', ...json(ref('CreatedKey', createdKeySchema, 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/audit': {
      get: {
        summary: 'The audit log: admin changes and sign-ins, newest first',
        security: admin,
        parameters: [
          ...timeRange,
          { name: 'actor', in: 'query', schema: { type: 'string' } },
          { name: 'target', in: 'query', schema: { type: 'string' } },
          { name: 'action', in: 'query', schema: { type: 'string' } },
          { name: 'before', in: 'query', schema: { type: 'string' }, description: 'a next_before cursor' },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        ],
        responses: {
          '200': { description: 'OK', ...json(ref('AuditEntryList', listOf(auditEntrySchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/teams': {
      post: {
        summary: 'Create a team (its limits apply to every member key)',
        security: admin,
        requestBody: { required: true, ...json(ref('CreateTeamInput', createTeamInputSchema, 'input')) },
        responses: { '201': { description: 'Created', ...json(ref('Team', teamSchema, 'output')) }, ...adminErrors },
      },
      get: {
        summary: 'Every team',
        security: admin,
        responses: {
          '200': { description: 'OK', ...json(ref('TeamList', listOf(teamSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/teams/{id}': {
      get: {
        summary: 'One team',
        security: admin,
        parameters: [idParam],
        responses: { '200': { description: 'OK', ...json(ref('Team', teamSchema, 'output')) }, ...adminErrors },
      },
      patch: {
        summary: "Change a team's fields and limits",
        security: admin,
        parameters: [idParam],
        requestBody: { required: true, ...json(ref('UpdateTeamInput', updateTeamInputSchema, 'input')) },
        responses: { '200': { description: 'OK', ...json(ref('Team', teamSchema, 'output')) }, ...adminErrors },
      },
      delete: {
        summary: 'Delete a team (409 while active keys name it)',
        security: admin,
        parameters: [idParam],
        responses: { '200': { description: 'Deleted', ...json(ref('Team', teamSchema, 'output')) }, ...adminErrors },
      },
    },
    '/admin/usage/export': {
      get: {
        summary: 'Ledger rows of a period, streamed as CSV or JSON lines (newest first)',
        security: admin,
        parameters: [
          ...timeRange,
          { name: 'format', in: 'query', schema: { enum: ['csv', 'jsonl'] } },
          { name: 'key', in: 'query', schema: { type: 'string' } },
          { name: 'team', in: 'query', schema: { type: 'string' } },
          { name: 'end_user', in: 'query', schema: { type: 'string' } },
          { name: 'session', in: 'query', schema: { type: 'string' } },
          { name: 'model', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'The rows',
            content: {
              'text/csv': { schema: { type: 'string' } },
              'application/x-ndjson': { schema: { type: 'string' } },
            },
          },
          ...adminErrors,
        },
      },
    },
    '/admin/usage': {
      get: {
        summary: 'Usage totals',
        security: admin,
        parameters: [
          ...timeRange,
          { name: 'key', in: 'query', schema: { type: 'string' } },
          { name: 'team', in: 'query', schema: { type: 'string' } },
          { name: 'end_user', in: 'query', schema: { type: 'string' } },
          { name: 'session', in: 'query', schema: { type: 'string' } },
          { name: 'model', in: 'query', schema: { type: 'string' } },
          {
            name: 'group_by',
            in: 'query',
            schema: { enum: ['key', 'model', 'day', 'status', 'session', 'agent', 'team', 'end_user'] },
          },
        ],
        responses: {
          '200': { description: 'OK', ...json(ref('UsageTotalsList', listOf(usageTotalsSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/requests': {
      get: {
        summary: 'Ledger rows, newest first',
        security: admin,
        parameters: [
          { name: 'key', in: 'query', schema: { type: 'string' } },
          { name: 'model', in: 'query', schema: { type: 'string' } },
          { name: 'status', in: 'query', schema: { type: 'string' }, description: '429, 4xx, ok or error' },
          {
            name: 'before',
            in: 'query',
            schema: { type: 'string' },
            description: 'ISO-8601, unix ms or a next_before cursor',
          },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        ],
        responses: {
          '200': { description: 'OK', ...json(ref('UsageRowList', listOf(usageRowSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/models': {
      get: {
        summary: 'Configured models and their deployments',
        security: admin,
        responses: {
          '200': { description: 'OK', ...json(ref('ConfiguredModelList', listOf(configuredModelSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/health': {
      get: {
        summary: 'Live health of every deployment',
        security: admin,
        responses: {
          '200': { description: 'OK', ...json(ref('DeploymentHealthList', listOf(deploymentHealthSchema), 'output')) },
          ...adminErrors,
        },
      },
    },
    '/admin/playground/chat/completions': {
      post: {
        summary: 'The console playground: POST /v1/chat/completions with the master key',
        security: admin,
        requestBody: { required: true, ...json(ref('ChatCompletionRequest', chatCompletionRequestSchema, 'input')) },
        responses: {
          '200': {
            description: 'As POST /v1/chat/completions',
            ...json(ref('ChatCompletion', chatCompletionSchema, 'output')),
          },
          ...adminErrors,
        },
      },
    },
    ...filesAndBatchesPaths({ ref, json, errors, security: api }),
    '/healthz': {
      get: {
        summary: 'Liveness',
        responses: {
          '200': { description: 'OK', ...json({ type: 'object', properties: { status: { const: 'ok' } } }) },
        },
      },
    },
    '/readyz': {
      get: {
        summary: 'Readiness (adapters, store, Redis, shutdown)',
        responses: {
          '200': { description: 'Ready' },
          '503': { description: 'Not ready: the failing checks with their reasons' },
        },
      },
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics (text format); the master key when metrics.auth is master',
        responses: { '200': { description: 'OK', content: { 'text/plain': { schema: { type: 'string' } } } } },
      },
    },
    '/openapi.json': {
      get: { summary: 'This document', responses: { '200': { description: 'OK', ...json({ type: 'object' }) } } },
    },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Switchyard',
      version,
      description:
        'A self-hosted AI gateway: the OpenAI API under /v1 in front of many providers, and its admin API under /admin.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        gatewayKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A gateway key: from the config, or a virtual key (sk-sy-…)',
        },
        masterKey: { type: 'http', scheme: 'bearer', description: 'The admin master key (admin.master_key)' },
      },
    },
  };
}
