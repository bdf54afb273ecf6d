import type { FinishReason } from '@switchyard/core';
import { collectOutputText, type ResponseObject } from './response-object.js';

/**
 * Sets the final `status` from the chat `finish_reason`: `length` -> `incomplete` with reason `max_output_tokens`,
 * `content_filter` -> `incomplete` with reason `content_filter`, anything else -> `completed` (with `completed_at`,
 * unix seconds); every item but `web_search_call` gets the response's status. Fills `output_text`. Mutates and returns `response`.
 */
export function finishResponse(
  response: ResponseObject,
  finishReason: FinishReason | null | undefined,
): ResponseObject {
  if (finishReason === 'length' || finishReason === 'content_filter') {
    response.status = 'incomplete';
    response.incomplete_details = { reason: finishReason === 'length' ? 'max_output_tokens' : 'content_filter' };
  } else {
    response.status = 'completed';
    response.completed_at = Math.floor(Date.now() / 1000);
  }
  const itemStatus = response.status === 'completed' ? 'completed' : 'incomplete';
  // A search that ran is completed even when the answer was cut (`incomplete` is not a web_search_call status).
  for (const item of response.output) if (item.type !== 'web_search_call') item.status = itemStatus;
  response.output_text = collectOutputText(response.output);
  return response;
}
