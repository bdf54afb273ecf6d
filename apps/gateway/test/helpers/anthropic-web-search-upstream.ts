import { type MockReply, type RecordedRequest, sseFrames } from '@switchyard/testkit';

/** The search the scripted Anthropic upstream reports, and the text it answers with. */
export const WEB_SEARCH = {
  id: 'srvtoolu_01WebSearch',
  query: 'switchyard gateway release',
  text: 'Switchyard 1.0 shipped in November.',
  url: 'https://example.com/switchyard',
  title: 'Switchyard 1.0',
};

const searchUse = {
  type: 'server_tool_use',
  id: WEB_SEARCH.id,
  name: 'web_search',
  input: { query: WEB_SEARCH.query },
};
const searchResult = {
  type: 'web_search_tool_result',
  tool_use_id: WEB_SEARCH.id,
  content: [
    {
      type: 'web_search_result',
      url: 'https://example.com/switchyard',
      title: 'Switchyard 1.0',
      encrypted_content: 'EqQB',
      page_age: 'November 2, 2026',
    },
  ],
};
const citation = {
  type: 'web_search_result_location',
  url: 'https://example.com/switchyard',
  title: 'Switchyard 1.0',
  encrypted_index: 'Eo8B',
  cited_text: 'Switchyard 1.0 shipped',
};
const usage = { input_tokens: 2100, output_tokens: 40, server_tool_use: { web_search_requests: 1 } };

/** The non-streamed answer: server_tool_use, web_search_tool_result, then a text block with a citation. */
function message(model: string): Record<string, unknown> {
  return {
    id: 'msg_01WebSearch',
    type: 'message',
    role: 'assistant',
    model,
    content: [searchUse, searchResult, { type: 'text', text: WEB_SEARCH.text, citations: [citation] }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
}

/** The same answer as Anthropic streams it (the search's input arrives as `input_json_delta`s). */
function events(model: string): string[] {
  const start = { ...message(model), content: [], stop_reason: null, usage: { input_tokens: 2100, output_tokens: 1 } };
  const input = JSON.stringify(searchUse.input);
  return [
    { type: 'message_start', message: start },
    { type: 'content_block_start', index: 0, content_block: { ...searchUse, input: {} } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input.slice(0, 10) } },
    { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: input.slice(10) } },
    { type: 'content_block_stop', index: 0 },
    { type: 'content_block_start', index: 1, content_block: searchResult },
    { type: 'content_block_stop', index: 1 },
    { type: 'content_block_start', index: 2, content_block: { type: 'text', text: '', citations: [] } },
    { type: 'content_block_delta', index: 2, delta: { type: 'citations_delta', citation } },
    { type: 'content_block_delta', index: 2, delta: { type: 'text_delta', text: WEB_SEARCH.text } },
    { type: 'content_block_stop', index: 2 },
    {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: 40, server_tool_use: { web_search_requests: 1 } },
    },
    { type: 'message_stop' },
  ].map((event) => JSON.stringify(event));
}

/**
 * A scripted Anthropic `POST /v1/messages`: when the request declares the web search server tool
 * (`{type:"web_search_20250305", name:"web_search"}`) it answers with one search and a cited text (streamed when
 * `stream` is set), else with a plain text without any search.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/web-search-tool
 */
export function anthropicWebSearchReply(request: RecordedRequest): MockReply {
  const body = request.json as { model: string; stream?: boolean; tools?: { type?: string }[] };
  if (!body.tools?.some((tool) => tool.type === 'web_search_20250305')) {
    return {
      json: {
        ...message(body.model),
        content: [{ type: 'text', text: 'No search.' }],
        usage: { input_tokens: 5, output_tokens: 2 },
      },
    };
  }
  return body.stream ? { chunks: sseFrames(events(body.model), 'typed') } : { json: message(body.model) };
}
