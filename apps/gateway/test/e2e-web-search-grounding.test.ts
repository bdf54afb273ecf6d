import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MockUpstream, createTestServiceAccount, googleTokenMock, startMockUpstream } from '@switchyard/testkit';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { GROUNDED, GROUNDED_TEXT, geminiGroundingReply } from './helpers/gemini-grounding-upstream.js';
import { expectOpenApiSchema, expectOpenApiStreamEvent } from './helpers/openapi-validator.js';
import { startGatewayFromYaml } from './helpers/test-gateway.js';

// Hosted web_search on /v1/responses (and web_search_options on chat) served by Gemini and by Gemini on Vertex as
// Google Search grounding, through the official openai SDK over real HTTP; the mock upstream replays a recorded
// grounded answer (FirebaseExtended/vertexai-sdk-test-data) whose segments are UTF-8 byte offsets.
const KEY = 'sk-switchyard-grounding-0123456789';
const ROOT = '/v1/projects/my-project/locations/us-central1/publishers/google/models';
const QUERY = GROUNDED.candidates[0]!.groundingMetadata.webSearchQueries[0]!;
const SOURCES = GROUNDED.candidates[0]!.groundingMetadata.groundingChunks.map((c) => c.web);
const SENTENCES = [
  'The current weather in London, United Kingdom is cloudy.',
  'The temperature is 67°F (19°C), but it feels like 75°F (24°C).',
  'There is a 0% chance of rain, and the humidity is around 41%.',
];

let upstream: MockUpstream;
let running: RunningServer;
let client: OpenAI;
let anthropic: Anthropic;

beforeAll(async () => {
  upstream = await startMockUpstream();
  const account = createTestServiceAccount(`${upstream.url}/oauth2/token`);
  const tokens = googleTokenMock(account);
  upstream.route('POST /oauth2/token', tokens.route);
  upstream.route('POST /v1beta/models/gemini-2.5-flash:generateContent', geminiGroundingReply(false));
  upstream.route('POST /v1beta/models/gemini-2.5-flash:streamGenerateContent', geminiGroundingReply(true));
  upstream.route(`POST ${ROOT}/gemini-2.5-flash:generateContent`, tokens.requireToken(geminiGroundingReply(false)));
  upstream.route(
    `POST ${ROOT}/gemini-2.5-flash:streamGenerateContent`,
    tokens.requireToken(geminiGroundingReply(true)),
  );
  const keyFile = join(await mkdtemp(join(tmpdir(), 'switchyard-grounding-')), 'service-account.json');
  await writeFile(keyFile, JSON.stringify(account.key));
  running = await startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  google: { adapter: google, api_key: gemini-upstream-key-0000, base_url: "${upstream.url}/v1beta" }
  vertex: { adapter: vertex, project: my-project, location: us-central1, credentials: "${keyFile}", base_url: "${upstream.url}" }
models:
  - { id: gemini, provider: google, upstream: gemini-2.5-flash }
  - { id: gemini-vertex, provider: vertex, upstream: gemini-2.5-flash }
routing: { max_retries: 0 }
`);
  client = new OpenAI({ baseURL: running.url, apiKey: KEY, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: running.url.replace(/\/v1$/, ''), apiKey: KEY, maxRetries: 0 });
});
afterAll(async () => {
  await running?.close();
  await upstream?.close();
});

const tools: OpenAI.Responses.Tool[] = [{ type: 'web_search' }];
type Citation = { type: string; start_index: number; end_index: number; url: string; title: string };
const cited = (text: string, annotations: Citation[]) => annotations.map((a) => text.slice(a.start_index, a.end_index));

describe.each([
  { route: 'Gemini', model: 'gemini', path: '/v1beta/models/gemini-2.5-flash' },
  { route: 'Vertex AI (Gemini)', model: 'gemini-vertex', path: `${ROOT}/gemini-2.5-flash` },
])('hosted web_search on $route as Google Search grounding', ({ model, path }) => {
  const sentBody = (method: string) =>
    upstream.requestsTo(`POST ${path}:${method}`).at(-1)!.json as { tools?: unknown[] };

  it('declares googleSearch upstream; answers with a web_search_call item and url_citation annotations (responses.create)', async () => {
    const { data: response, response: raw } = await client.responses
      .create({ model, input: 'Weather in London?', tools })
      .withResponse();
    expect(sentBody('generateContent').tools).toEqual([{ googleSearch: {} }]);
    expect(raw.headers.get('x-switchyard-warning')).toBeNull();
    expectOpenApiSchema('Response', response);
    expect(response.output.map((item) => item.type)).toEqual(['web_search_call', 'message']);
    expect(response.output[0]).toMatchObject({
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: QUERY },
    });
    const part = (response.output[1] as OpenAI.Responses.ResponseOutputMessage)
      .content[0] as OpenAI.Responses.ResponseOutputText;
    expect(part.text).toBe(GROUNDED_TEXT);
    const annotations = part.annotations as Citation[];
    expect(cited(part.text, annotations)).toEqual(SENTENCES);
    expect(annotations.map((a) => [a.type, a.url, a.title])).toEqual([
      ['url_citation', SOURCES[0]!.uri, SOURCES[0]!.title],
      ['url_citation', SOURCES[1]!.uri, SOURCES[1]!.title],
      ['url_citation', SOURCES[1]!.uri, SOURCES[1]!.title],
    ]);
  });

  it('streams the citations as response.output_text.annotation.added, then the web_search_call (responses.stream)', async () => {
    const stream = client.responses.stream({ model, input: 'Weather in London?', tools });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) {
      expectOpenApiStreamEvent(event);
      events.push(event);
    }
    const final = await stream.finalResponse();
    expect(sentBody('streamGenerateContent').tools).toEqual([{ googleSearch: {} }]);
    const added = events.filter((e) => e.type === 'response.output_text.annotation.added');
    expect(added.map((e) => e.annotation_index)).toEqual([0, 1, 2]);
    const types = events.map((e) => e.type);
    expect(types.indexOf('response.output_text.annotation.added')).toBeGreaterThan(
      types.lastIndexOf('response.output_text.delta'),
    );
    expect(types.indexOf('response.web_search_call.completed')).toBeGreaterThan(
      types.indexOf('response.output_text.done'),
    );
    expect(final.output.map((item) => item.type)).toEqual(['message', 'web_search_call']);
    const part = (final.output[0] as OpenAI.Responses.ResponseOutputMessage)
      .content[0] as OpenAI.Responses.ResponseOutputText;
    expect(cited(part.text, part.annotations as Citation[])).toEqual(SENTENCES);
    expect(final.output[1]).toMatchObject({ action: { query: QUERY } });
  });

  it("carries the citations on chat completions as the message's annotations (web_search_options)", async () => {
    const completion = await client.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Weather in London?' }],
      web_search_options: {},
    });
    expect(sentBody('generateContent').tools).toEqual([{ googleSearch: {} }]);
    const message = completion.choices[0]!.message;
    const annotations = message.annotations!;
    expect(
      annotations.map((a) => message.content!.slice(a.url_citation.start_index, a.url_citation.end_index)),
    ).toEqual(SENTENCES);
    expect(annotations[0]).toEqual({
      type: 'url_citation',
      url_citation: { start_index: 0, end_index: SENTENCES[0]!.length, url: SOURCES[0]!.uri, title: SOURCES[0]!.title },
    });
  });
});

describe.each([
  { route: 'Gemini', model: 'gemini', path: '/v1beta/models/gemini-2.5-flash' },
  { route: 'Vertex AI (Gemini)', model: 'gemini-vertex', path: `${ROOT}/gemini-2.5-flash` },
])("Anthropic's web search server tool on /v1/messages, on $route, as Google Search grounding", ({ model, path }) => {
  const webSearch = { type: 'web_search_20250305', name: 'web_search', max_uses: 3 } as const;
  const request = {
    model,
    max_tokens: 256,
    messages: [{ role: 'user' as const, content: 'Weather in London?' }],
    tools: [webSearch],
  };
  const expectedCitations = SENTENCES.map((sentence, i) => ({
    type: 'web_search_result_location',
    url: SOURCES[i === 0 ? 0 : 1]!.uri,
    title: SOURCES[i === 0 ? 0 : 1]!.title,
    cited_text: sentence,
    encrypted_index: '',
  }));

  it('answers server_tool_use, web_search_tool_result and a cited text block, with web_search_requests (messages.create)', async () => {
    const { data: message, response: raw } = await anthropic.messages.create(request).withResponse();
    expect((upstream.requestsTo(`POST ${path}:generateContent`).at(-1)!.json as { tools?: unknown[] }).tools).toEqual([
      { googleSearch: {} },
    ]);
    expect(raw.headers.get('x-switchyard-warning')).toContain("Web search field 'max_uses'");
    expect(message.content.map((block) => block.type)).toEqual(['server_tool_use', 'web_search_tool_result', 'text']);
    const [use, result, text] = message.content as [
      Anthropic.ServerToolUseBlock,
      Anthropic.WebSearchToolResultBlock,
      Anthropic.TextBlock,
    ];
    expect(use).toMatchObject({ name: 'web_search', input: { query: QUERY }, id: expect.stringMatching(/^srvtoolu_/) });
    expect(result.tool_use_id).toBe(use.id);
    expect((result.content as Anthropic.WebSearchResultBlock[]).map((r) => r.url)).toEqual(
      SOURCES.map((source) => source.uri),
    );
    expect(text.text).toBe(GROUNDED_TEXT);
    expect(text.citations).toEqual(expectedCitations);
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1 });
  });

  it('streams the citations as citations_delta on the text block, then the search blocks (messages.stream)', async () => {
    const stream = anthropic.messages.stream(request);
    const deltas: string[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'content_block_delta') deltas.push(event.delta.type);
    });
    const message = await stream.finalMessage();
    // What the translation dropped is named in the stream's headers too, which went out before its first event.
    const { response: raw } = await stream.withResponse();
    expect(raw.headers.get('x-switchyard-warning')).toContain("Web search field 'max_uses'");
    expect(
      (upstream.requestsTo(`POST ${path}:streamGenerateContent`).at(-1)!.json as { tools?: unknown[] }).tools,
    ).toEqual([{ googleSearch: {} }]);
    expect(message.content.map((block) => block.type)).toEqual(['text', 'server_tool_use', 'web_search_tool_result']);
    const [text, use] = message.content as [Anthropic.TextBlock, Anthropic.ServerToolUseBlock];
    expect(text.text).toBe(GROUNDED_TEXT);
    expect(text.citations).toEqual(expectedCitations);
    expect(use.input).toEqual({ query: QUERY });
    expect(deltas.filter((d) => d === 'citations_delta')).toHaveLength(3);
    expect(message.usage.server_tool_use).toEqual({ web_search_requests: 1 });
  });
});
