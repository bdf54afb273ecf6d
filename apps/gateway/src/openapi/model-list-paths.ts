import {
  anthropicModelListSchema,
  anthropicModelSchema,
  pricedModelListSchema,
  pricedModelSchema,
} from './model-schemas.js';
import { listOf, usageTotalsSchema } from './admin-schemas.js';
import type { DocumentParts, JsonObject } from './document-parts.js';

/**
 * The OpenAPI path items of `GET /v1/models` (OpenAI's list shape or Anthropic's), `GET /v1/models/{model}` and
 * `GET /v1/usage` (the calling key's own totals).
 * @see https://platform.openai.com/docs/api-reference/models
 * @see https://docs.anthropic.com/en/api/models-list
 */
export function modelListPaths({ ref, json, errors, api, timeRange }: DocumentParts): Record<string, JsonObject> {
  return {
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
  };
}
