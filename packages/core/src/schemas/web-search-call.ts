import { z } from 'zod';

/**
 * A web search the upstream ran while answering (a Switchyard extension of chat's message and stream delta, set by
 * adapters whose `webSearch` is true): `{id, query}`, `id` the upstream's id of the search call (e.g. Anthropic's
 * `srvtoolu_...`), `query` the search text. The `/v1/responses` front door turns each into a `web_search_call` item.
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses-object-output-web_search_call
 */
export const webSearchCallSchema = z.looseObject({ id: z.string(), query: z.string() });

/** A web search the upstream ran while answering. */
export type WebSearchCall = z.infer<typeof webSearchCallSchema>;
