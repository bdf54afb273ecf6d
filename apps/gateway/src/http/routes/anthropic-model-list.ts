import { invalidRequestError } from '@switchyard/core';
import type { Request } from 'express';

/** One entry of Anthropic's model list: `{type:"model", id, display_name, created_at}` (RFC 3339) and extra fields. */
export interface AnthropicModelInfo {
  type: 'model';
  id: string;
  display_name: string;
  created_at: string;
  [field: string]: unknown;
}

/** Anthropic's `GET /v1/models` answer: a page of models and its bounds. */
export interface AnthropicModelPage {
  data: AnthropicModelInfo[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
}

/**
 * True when a models request comes from an Anthropic client (Claude Code, `@anthropic-ai/sdk`): it carries
 * `x-api-key` or `anthropic-version`. OpenAI clients send neither and keep OpenAI's shape.
 */
export function wantsAnthropicModels(req: Request): boolean {
  return req.get('x-api-key') !== undefined || req.get('anthropic-version') !== undefined;
}

/**
 * An OpenAI model entry (`{id, object, created (unix s), owned_by, ...}`) in Anthropic's shape: `created` becomes
 * `created_at` (RFC 3339), `display_name` is `displayName` (see `modelDisplayName`); other fields the gateway adds
 * (`pricing`, `price_source`, `owned_by`) are kept.
 * @see https://docs.anthropic.com/en/api/models
 */
export function toAnthropicModel(
  model: { id: string; created: number; object?: unknown; [field: string]: unknown },
  displayName: string,
): AnthropicModelInfo {
  const { id, created, object: _object, ...rest } = model;
  return {
    type: 'model',
    id,
    display_name: displayName,
    created_at: new Date(created * 1000).toISOString().replace('.000Z', 'Z'),
    ...rest,
  };
}

/** Largest `limit` Anthropic's list accepts. */
const MAX_LIMIT = 1000;

/**
 * One page of `models` as Anthropic's `GET /v1/models` answers: `limit` (1 to 1,000, default 20) entries after
 * `after_id` or before `before_id` (ids of the list; an unknown id gives an empty page), with `has_more`, `first_id`
 * and `last_id`. Throws 400 naming the query parameter when `limit` is not an integer in range.
 * @see https://docs.anthropic.com/en/api/models-list
 */
export function anthropicModelPage(models: AnthropicModelInfo[], query: Request['query']): AnthropicModelPage {
  const rawLimit = query.limit;
  const limit = rawLimit === undefined ? 20 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw invalidRequestError(`limit: expected an integer from 1 to ${MAX_LIMIT}.`, 'limit');
  const afterId = typeof query.after_id === 'string' ? query.after_id : undefined;
  const beforeId = typeof query.before_id === 'string' ? query.before_id : undefined;
  let page: AnthropicModelInfo[];
  let hasMore: boolean;
  if (beforeId !== undefined) {
    const end = models.findIndex((m) => m.id === beforeId);
    const start = Math.max(0, end - limit);
    page = end < 0 ? [] : models.slice(start, end);
    hasMore = end > 0 && start > 0;
  } else {
    const start = afterId === undefined ? 0 : models.findIndex((m) => m.id === afterId) + 1;
    page = afterId !== undefined && start === 0 ? [] : models.slice(start, start + limit);
    hasMore = start + limit < models.length && page.length > 0;
  }
  return { data: page, has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null };
}
