import { type MockUpstream, createFixtureReader } from '@switchyard/testkit';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/start-server.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

const KEY = 'sk-switchyard-rerank-0123456789';
const CO_KEY = 'co-upstream-rerank-secret-0123456789';
// Built from Cohere's API reference example (documentation, not a recording): provider-cohere's fixtures/cohere/README.md.
const fixtures = createFixtureReader(new URL('../../../packages/provider-cohere/fixtures/', import.meta.url));
const example = fixtures.json<{ results: { index: number; relevance_score: number }[] }>('cohere/cohere-rerank.json');
const DOCUMENTS = [
  'Carson City is the capital city of the American state of Nevada.',
  'The Commonwealth of the Northern Mariana Islands is a group of islands in the Pacific Ocean. Its capital is Saipan.',
  'Capitalization or capitalisation in English grammar is the use of a capital letter at the start of a word.',
  'Washington, D.C. (also known as simply Washington or D.C.) is the capital of the United States.',
  'Capital punishment has existed in the United States since before the United States was a country.',
];
let upstream: MockUpstream;
let running: RunningServer;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: { routes: { 'POST /v2/rerank': { json: example } } },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  cohere: { adapter: cohere, api_key: ${CO_KEY}, base_url: "${url.upstream}" }
  openai: { adapter: openai, api_key: sk-openai-rerank-0000, base_url: "${url.upstream}/v1" }
models:
  - { id: rerank, provider: cohere, upstream: rerank-v3.5 }
  - { id: gpt, provider: openai, upstream: gpt-4.1-nano }
routing: { max_retries: 0 }
`,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      running,
    } = gateway),
);

const rerank = (body: unknown) =>
  fetch(`${running.url}/rerank`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('POST /v1/rerank through Cohere', () => {
  it("sends Cohere's /v2/rerank request and answers the results in Cohere's shape, documents echoed on request", async () => {
    const response = await rerank({
      model: 'rerank',
      query: 'What is the capital of the United States?',
      documents: DOCUMENTS,
      top_n: 3,
      return_documents: true,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-switchyard-provider')).toBe('cohere');
    const body = (await response.json()) as {
      results: { index: number; relevance_score: number; document?: { text: string } }[];
      meta: unknown;
    };
    expect(body.results.map((r) => [r.index, r.relevance_score])).toEqual(
      example.results.map((r) => [r.index, r.relevance_score]),
    );
    expect(body.results[0]!.document).toEqual({ text: DOCUMENTS[3] });
    expect(body.meta).toMatchObject({ billed_units: { search_units: 1 } });
    const sent = upstream.requestsTo('POST /v2/rerank').at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${CO_KEY}`);
    expect(sent.json).toEqual({
      model: 'rerank-v3.5',
      query: 'What is the capital of the United States?',
      documents: DOCUMENTS,
      top_n: 3,
    });
  });

  it('takes documents as {text} objects and leaves documents out unless asked', async () => {
    const response = await rerank({
      model: 'rerank',
      query: 'capital',
      documents: DOCUMENTS.map((text) => ({ text })),
    });
    const body = (await response.json()) as { results: { document?: unknown }[] };
    expect(body.results.every((r) => r.document === undefined)).toBe(true);
    expect((upstream.requestsTo('POST /v2/rerank').at(-1)!.json as { documents: unknown }).documents).toEqual(
      DOCUMENTS,
    );
  });

  it('answers 400 naming the field for a bad body, and 400 unsupported_operation for a model that cannot rerank', async () => {
    const bad = await rerank({ model: 'rerank', query: 'capital', documents: [] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('documents');
    const chat = await rerank({ model: 'gpt', query: 'capital', documents: DOCUMENTS });
    expect(chat.status).toBe(400);
    expect(((await chat.json()) as { error: { code: string } }).error.code).toBe('unsupported_operation');
  });
});
