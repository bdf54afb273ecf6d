import { readUpstreamJson, type sendUpstreamRequest, type UpstreamModel } from '@switchyard/core';
import { anthropicModelPageSchema } from './anthropic-response-schemas.js';

/** How many pages of 1,000 models are read at most. */
const MAX_PAGES = 10;

/**
 * Reads Anthropic's model list (`GET /v1/models?limit=1000`, following `has_more` / `last_id` with `after_id`, at most
 * 10 pages) as `[{id, created}]`, `created` in unix seconds from `created_at` (RFC 3339). `get(pathAndQuery)` sends one
 * authenticated GET. Throws what `get` throws (mapped upstream errors, 502/504) and 502 `upstream_invalid_response`
 * when a page is not of the documented shape (`anthropicModelPageSchema`: no `data` array, an entry without an `id`).
 * @see https://docs.anthropic.com/en/api/models-list
 */
export async function listAnthropicModels(
  provider: string,
  get: (pathAndQuery: string) => ReturnType<typeof sendUpstreamRequest>,
  signal: AbortSignal,
): Promise<UpstreamModel[]> {
  const models: UpstreamModel[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const response = await get(`/models?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}`);
    const list = await readUpstreamJson(provider, response, signal, anthropicModelPageSchema);
    for (const model of list.data) {
      const created = model.created_at !== undefined ? Math.floor(Date.parse(model.created_at) / 1000) : Number.NaN;
      models.push({ id: model.id, ...(Number.isFinite(created) ? { created } : {}) });
    }
    if (!list.has_more || !list.last_id) break;
    after = list.last_id;
  }
  return models;
}
