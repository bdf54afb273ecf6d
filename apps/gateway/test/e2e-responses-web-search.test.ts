import { type MockUpstream, openaiReplayRoutes } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { WEB_SEARCH, anthropicWebSearchReply } from './helpers/anthropic-web-search-upstream.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';
import { expectOpenApiSchema, expectOpenApiStreamEvent } from './helpers/openapi-validator.js';

const KEY = 'sk-switchyard-web-search-0123456789';
let upstream: MockUpstream;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: { multi: { routes: { ...openaiReplayRoutes(), 'POST /v1/messages': anthropicWebSearchReply } } },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  openai: { adapter: openai, api_key: sk-upstream-openai-0000, base_url: "${url.multi}/v1" }
  anthropic: { adapter: anthropic, api_key: sk-ant-upstream-0000, base_url: "${url.multi}" }
models:
  - { id: gpt, provider: openai, upstream: gpt-4.1-nano }
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
routing: { max_retries: 0 }
`,
    clearBetweenTests: true,
  },
  (gateway) => {
    ({
      upstreams: { multi: upstream },
      openai: client,
    } = gateway);
  },
);

const tools: OpenAI.Responses.Tool[] = [
  { type: 'web_search', user_location: { type: 'approximate', country: 'FR', city: 'Paris' } },
];
const serverTool = {
  type: 'web_search_20250305',
  name: 'web_search',
  user_location: { type: 'approximate', country: 'FR', city: 'Paris' },
};
const searchItem = {
  type: 'web_search_call',
  id: `ws_${WEB_SEARCH.id}`,
  status: 'completed',
  action: { type: 'search', query: WEB_SEARCH.query },
};
// Claude's web_search_result_location citation of its text block, as a Responses url_citation spanning the block.
const citation = {
  type: 'url_citation',
  start_index: 0,
  end_index: WEB_SEARCH.text.length,
  url: WEB_SEARCH.url,
  title: WEB_SEARCH.title,
};
const textPart = (output: OpenAI.Responses.ResponseOutputItem[]) =>
  (output.find((item) => item.type === 'message') as OpenAI.Responses.ResponseOutputMessage).content[0];

describe('hosted web_search on /v1/responses through the openai SDK', () => {
  it('declares Anthropic web search server tool upstream and answers with a web_search_call item', async () => {
    const { data: response, response: raw } = await client.responses
      .create({ model: 'claude', input: 'What is new with Switchyard?', tools })
      .withResponse();
    expect(upstream.requestsTo('POST /v1/messages').at(-1)!.json).toMatchObject({ tools: [serverTool] });
    expect(raw.headers.get('x-switchyard-warning')).toBeNull();
    expectOpenApiSchema('Response', response);
    expect(response.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    expect(response.output[0]).toEqual(searchItem);
    expect(response.output_text).toBe(WEB_SEARCH.text);
    expect(textPart(response.output)).toMatchObject({ type: 'output_text', annotations: [citation] });
  });

  it('streams the web_search_call item before the text', async () => {
    const stream = client.responses.stream({
      model: 'claude',
      input: 'What is new with Switchyard?',
      tools: [{ type: 'web_search_preview' }],
    });
    const types: string[] = [];
    for await (const event of stream) {
      expectOpenApiStreamEvent(event);
      types.push(event.type);
    }
    const final = await stream.finalResponse();
    const sent = upstream.requestsTo('POST /v1/messages').at(-1)!.json as { stream: boolean; tools: unknown[] };
    expect(sent.stream).toBe(true);
    expect(sent.tools).toEqual([{ type: 'web_search_20250305', name: 'web_search' }]);
    expect(final.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    expect(final.output[0]).toEqual(searchItem);
    expect(final.output_text).toBe(WEB_SEARCH.text);
    const search = types.indexOf('response.web_search_call.completed');
    expect(search).toBeGreaterThan(types.indexOf('response.web_search_call.in_progress'));
    expect(search).toBeLessThan(types.indexOf('response.output_text.delta'));
    // The citation arrives when Claude's text block ends: after its text, before the part is done.
    const added = types.indexOf('response.output_text.annotation.added');
    expect(added).toBeGreaterThan(types.indexOf('response.output_text.delta'));
    expect(added).toBeLessThan(types.indexOf('response.output_text.done'));
    expect(textPart(final.output)).toMatchObject({ annotations: [citation] });
  });

  it("carries the citation on chat completions as the message's annotations, streamed and not", async () => {
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'user', content: 'What is new with Switchyard?' },
    ];
    const completion = await client.chat.completions.create({ model: 'claude', messages, web_search_options: {} });
    const expected = [
      {
        type: 'url_citation',
        url_citation: {
          start_index: 0,
          end_index: WEB_SEARCH.text.length,
          url: WEB_SEARCH.url,
          title: WEB_SEARCH.title,
        },
      },
    ];
    expect(completion.choices[0]!.message.annotations).toEqual(expected);
    const stream = client.chat.completions.stream({ model: 'claude', messages, web_search_options: {} });
    const streamed: unknown[] = [];
    for await (const chunk of stream)
      streamed.push(...((chunk.choices[0]?.delta as { annotations?: unknown[] } | undefined)?.annotations ?? []));
    expect(streamed).toEqual(expected);
    expect((await stream.finalChatCompletion()).choices[0]!.message.content).toBe(WEB_SEARCH.text);
  });

  it('still drops web_search with x-switchyard-warning where the provider has no search tool', async () => {
    const { data: response, response: raw } = await client.responses
      .create({ model: 'gpt', input: 'Hello', tools })
      .withResponse();
    expect(raw.headers.get('x-switchyard-warning')).toContain("'web_search'");
    const sent = upstream.requestsTo('POST /v1/chat/completions').at(-1)!.json as Record<string, unknown>;
    expect(sent.web_search_options).toBeUndefined();
    expect(sent.tools).toBeUndefined();
    expect(response.output.some((item) => item.type === 'web_search_call')).toBe(false);
  });
});
