import { createUpstreamErrorMapper, openAIErrorHooks } from '@switchyard/core';
import { type AzureErrorBody, azureErrorBodySchema } from './azure-error-schema.js';

/** Whether the body is a content-filter refusal, and the categories it blocked, e.g. `self_harm (medium)`. */
function contentFilter(body: AzureErrorBody): { blocked: boolean; categories: string[] } {
  const error = typeof body.error === 'object' ? body.error : undefined;
  const inner = error?.innererror;
  const blocked =
    error?.code === 'content_filter' ||
    inner?.code === 'ResponsibleAIPolicyViolation' ||
    inner?.content_filter_result !== undefined;
  const categories = Object.entries(inner?.content_filter_result ?? {})
    .filter(([, category]) => category?.filtered)
    .map(([name, category]) => (category?.severity ? `${name} (${category.severity})` : name));
  return { blocked, categories };
}

/**
 * Maps an Azure OpenAI error answer to the client's error: `(provider, status, bodyText, headers, secrets)`. The body
 * is OpenAI's shape (read as provider-openai's `mapOpenAIError` does: status kept, key redacted) plus Azure's
 * additions, read through `azureErrorBodySchema`:
 * - a content-filter refusal (HTTP 400, `code: "content_filter"` or `innererror.code: "ResponsibleAIPolicyViolation"`
 *   with `innererror.content_filter_result`) becomes 400 `invalid_request_error` with code `content_filter`, and its
 *   message names the blocked categories and severities (e.g. `Filtered: self_harm (medium).`);
 * - `x-ms-retry-after-ms` (ms) is passed on as `retry-after-ms`, which the gateway's retries honour before
 *   `retry-after` (seconds).
 * Built by core's `createUpstreamErrorMapper`; never throws.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/quotas-limits
 */
export const mapAzureError = createUpstreamErrorMapper({
  schema: azureErrorBodySchema,
  ...openAIErrorHooks,
  toMessage: (body, context) => {
    const message = openAIErrorHooks.toMessage(body);
    const { blocked, categories } = contentFilter(body);
    if (!blocked || categories.length === 0) return message;
    return `${message || `The upstream provider '${context.provider}' answered HTTP ${context.status}.`} Filtered: ${categories.join(', ')}.`;
  },
  toType: (body) => (contentFilter(body).blocked ? 'invalid_request_error' : openAIErrorHooks.toType(body)),
  toCode: (body) => (contentFilter(body).blocked ? 'content_filter' : openAIErrorHooks.toCode(body)),
  toHeaders: (_body, { headers }): Record<string, string> => {
    const msRetry = headers['x-ms-retry-after-ms'];
    return typeof msRetry === 'string' && headers['retry-after-ms'] === undefined ? { 'retry-after-ms': msRetry } : {};
  },
});
