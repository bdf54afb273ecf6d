import { GatewayError, parseJsonOrUndefined } from '@switchyard/core';
import { mapOpenAIError } from '@switchyard/provider-openai';

interface AzureFilterCategory {
  filtered?: boolean;
  severity?: string;
  detected?: boolean;
}

interface AzureErrorBody {
  error?: { code?: unknown; innererror?: { code?: string; content_filter_result?: Record<string, AzureFilterCategory> } };
}

/** The categories Azure's filter blocked, e.g. `self_harm (medium)`, from `innererror.content_filter_result`. */
function filteredCategories(result: Record<string, AzureFilterCategory> | undefined): string[] {
  return Object.entries(result ?? {})
    .filter(([, category]) => category?.filtered)
    .map(([name, category]) => (category.severity ? `${name} (${category.severity})` : name));
}

/**
 * Maps an Azure OpenAI error answer to the client's error. The body is OpenAI's shape (mapped by provider-openai's
 * `mapOpenAIError`: status kept, key redacted) plus Azure's additions:
 * - a content-filter refusal (HTTP 400, `code: "content_filter"` or `innererror.code: "ResponsibleAIPolicyViolation"`
 *   with `innererror.content_filter_result`) becomes 400 `invalid_request_error` with code `content_filter`, and its
 *   message names the blocked categories and severities (e.g. `Filtered: self_harm (medium).`);
 * - `x-ms-retry-after-ms` (ms) is passed on as `retry-after-ms`, which the gateway's retries honour before
 *   `retry-after` (seconds).
 * Returns the error; never throws.
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/concepts/content-filter
 * @see https://learn.microsoft.com/en-us/azure/ai-services/openai/quotas-limits
 */
export function mapAzureError(
  provider: string,
  status: number,
  bodyText: string,
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[],
): GatewayError {
  const msRetry = headers['x-ms-retry-after-ms'];
  const withRetry = typeof msRetry === 'string' && headers['retry-after-ms'] === undefined ? { ...headers, 'retry-after-ms': msRetry } : headers;
  const mapped = mapOpenAIError(provider, status, bodyText, withRetry, secrets);
  const body = parseJsonOrUndefined(bodyText) as AzureErrorBody | null | undefined;
  if (body === undefined) return mapped;
  const inner = body?.error?.innererror;
  const isFilter = body?.error?.code === 'content_filter' || inner?.code === 'ResponsibleAIPolicyViolation' || inner?.content_filter_result !== undefined;
  if (!isFilter) return mapped;
  const categories = filteredCategories(inner?.content_filter_result);
  return new GatewayError({
    status: mapped.status,
    type: 'invalid_request_error',
    code: 'content_filter',
    param: mapped.param,
    message: categories.length > 0 ? `${mapped.message} Filtered: ${categories.join(', ')}.` : mapped.message,
    headers: mapped.headers,
  });
}
