import type { RerankRequest, RerankResponse } from '@switchyard/core';

/**
 * Rerank request -> Cohere `POST /v2/rerank` body `{model, query, documents, top_n?, max_tokens_per_doc?}`: documents
 * given as `{text}` objects are sent as their text (v2 takes strings). `return_documents` is not a v2 field: it is
 * honoured by {@link convertCohereRerank}.
 * @see https://docs.cohere.com/reference/rerank
 */
export function convertToCohereRerank(request: RerankRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    query: request.query,
    documents: documentTexts(request),
  };
  if (request.top_n != null) body.top_n = request.top_n;
  if (request.max_tokens_per_doc != null) body.max_tokens_per_doc = request.max_tokens_per_doc;
  return body;
}

/** The documents of a rerank request as texts, in order. */
function documentTexts(request: RerankRequest): string[] {
  return request.documents.map((document) => (typeof document === 'string' ? document : document.text));
}

/**
 * Cohere's rerank answer -> the gateway's: results as Cohere ordered them (most relevant first), with `document.text`
 * from the request when `return_documents` was set; `id` and `meta` (billed search units) kept; `model` the id the
 * client asked for.
 */
export function convertCohereRerank(answer: RerankResponse, request: RerankRequest, model: string): RerankResponse {
  const texts = request.return_documents ? documentTexts(request) : undefined;
  return {
    ...answer,
    model,
    results: answer.results.map((result) =>
      texts && texts[result.index] !== undefined ? { ...result, document: { text: texts[result.index]! } } : result,
    ),
  };
}
