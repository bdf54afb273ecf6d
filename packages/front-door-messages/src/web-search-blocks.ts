import { type MessageAnnotation, type WebSearchCall, urlCitationAnnotationSchema } from '@switchyard/core';

/** The name Anthropic's web search server tool is called with. */
const WEB_SEARCH_TOOL = 'web_search';

/** A `web_search_result_location` citation of a text block (`encrypted_index` is empty: no Anthropic index exists). */
export interface WebSearchCitation {
  type: 'web_search_result_location';
  url: string;
  title: string;
  cited_text: string;
  encrypted_index: string;
}

/** The `server_tool_use` block of a search, and its `web_search_tool_result` block. */
export type WebSearchBlocks = [
  { type: 'server_tool_use'; id: string; name: typeof WEB_SEARCH_TOOL; input: { query: string } },
  {
    type: 'web_search_tool_result';
    tool_use_id: string;
    content: { type: 'web_search_result'; url: string; title: string; encrypted_content: string; page_age: null }[];
  },
];

/**
 * A chat message's `url_citation` annotations -> Anthropic `web_search_result_location` citations: `url`, `title`,
 * `cited_text` = the annotated span of `content`. Other annotation types are left out. Pure.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#citations
 */
export function toWebSearchCitations(
  annotations: readonly MessageAnnotation[] | null | undefined,
  content: string,
): WebSearchCitation[] {
  return (annotations ?? []).flatMap((annotation) => {
    const parsed = urlCitationAnnotationSchema.safeParse(annotation);
    if (!parsed.success) return [];
    const { start_index, end_index, url, title } = parsed.data.url_citation;
    return [
      {
        type: 'web_search_result_location' as const,
        url,
        title,
        cited_text: content.slice(start_index, end_index),
        encrypted_index: '',
      },
    ];
  });
}

/**
 * A web search the model's upstream ran (`{id, query}`) -> Anthropic's `server_tool_use` block (`id:
 * "srvtoolu_<id>"`, `name:"web_search"`, `input:{query}`) and its `web_search_tool_result` block listing `sources`
 * (`{type:"web_search_result", url, title, encrypted_content:"", page_age:null}`). Pure.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool#response
 */
export function toWebSearchBlocks(
  search: WebSearchCall,
  sources: readonly { url: string; title: string }[],
): WebSearchBlocks {
  const id = search.id.startsWith('srvtoolu_') ? search.id : `srvtoolu_${search.id}`;
  return [
    { type: 'server_tool_use', id, name: WEB_SEARCH_TOOL, input: { query: search.query } },
    {
      type: 'web_search_tool_result',
      tool_use_id: id,
      content: sources.map(({ url, title }) => ({
        type: 'web_search_result',
        url,
        title,
        encrypted_content: '',
        page_age: null,
      })),
    },
  ];
}

/** The distinct sources (`url`, `title`) of citations, in order of first appearance. */
export function citedSources(citations: readonly WebSearchCitation[]): { url: string; title: string }[] {
  const seen = new Map<string, { url: string; title: string }>();
  for (const { url, title } of citations) if (!seen.has(url)) seen.set(url, { url, title });
  return [...seen.values()];
}
