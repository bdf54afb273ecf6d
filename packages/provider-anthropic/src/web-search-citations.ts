import type { UrlCitationAnnotation } from '@switchyard/core';
import { z } from 'zod';

/**
 * A web search citation on a text block: `{type:"web_search_result_location", url, title, cited_text,
 * encrypted_index}` (other citation types, from documents, are not web sources).
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#citations
 */
const webSearchResultLocationSchema = z.looseObject({
  type: z.literal('web_search_result_location'),
  url: z.string(),
  title: z.string().nullish(),
});

/**
 * The `web_search_result_location` citations of a text block -> OpenAI `url_citation` annotations of the chat content:
 * each cites the whole block, which starts at `start` (UTF-16 offset in the content) and is `text` long; `title` is the
 * citation's title, else its url. Other citation types and malformed entries are left out. Pure; never throws.
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices-message-annotations
 */
export function webSearchCitations(
  citations: readonly unknown[] | null | undefined,
  start: number,
  text: string,
): UrlCitationAnnotation[] {
  if (text.length === 0) return [];
  return (citations ?? []).flatMap((citation) => {
    const parsed = webSearchResultLocationSchema.safeParse(citation);
    if (!parsed.success) return [];
    const { url, title } = parsed.data;
    return [
      {
        type: 'url_citation' as const,
        url_citation: { start_index: start, end_index: start + text.length, url, title: title || url },
      },
    ];
  });
}
