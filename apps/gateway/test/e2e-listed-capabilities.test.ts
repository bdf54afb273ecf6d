import { type MockUpstream, openaiReplayRoutes, testkitFixtures } from '@switchyard/testkit';
import type OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// Capability-aware routing from the provider's model list (issue #18): an OpenRouter-style list reports what each
// model can do; deployments without `capabilities` in config use it.
const KEY = 'sk-switchyard-listed-0123456789';
const CHAT = 'POST /v1/chat/completions';
const MODELS = 'GET /v1/models';

let upstream: MockUpstream;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      upstream: {
        routes: {
          ...openaiReplayRoutes(),
          [MODELS]: { json: testkitFixtures().json('openai-compatible/openrouter-models.json') },
        },
      },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  openrouter: { adapter: openai, api_key: sk-or-000000, base_url: "${url.upstream}/v1" }
models:
  - id: mixed
    targets:
      - { provider: openrouter, upstream: meta-llama/llama-3.3-70b-instruct, weight: 1000 }
      - { provider: openrouter, upstream: openai/gpt-4o-mini, weight: 0.001 }
  - id: configured
    targets:
      - { provider: openrouter, upstream: meta-llama/llama-3.3-70b-instruct, capabilities: [tools, vision] }
log: { level: silent }
`,
    clientTimeoutMs: 10_000,
  },
  (gateway) =>
    ({
      upstreams: { upstream },
      openai: client,
    } = gateway),
);
beforeEach(() => upstream.clear());
const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
const vision = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What is this?' }, image] }];
const sentModels = () => upstream.requestsTo(CHAT).map((r) => (r.json as { model: string }).model);

describe('capabilities from the provider model list', () => {
  it('a vision request skips the deployment whose listed input modalities lack images', async () => {
    for (let i = 0; i < 3; i++) {
      const { response } = await client.chat.completions.create({ model: 'mixed', messages: vision }).withResponse();
      expect(response.headers.get('x-switchyard-upstream-model')).toBe('openai/gpt-4o-mini');
    }
    expect(sentModels()).toEqual(Array(3).fill('openai/gpt-4o-mini'));
    // A plain request still goes to the heavier-weighted deployment.
    await client.chat.completions.create({ model: 'mixed', messages: [{ role: 'user', content: 'hi' }] });
    expect(sentModels().at(-1)).toBe('meta-llama/llama-3.3-70b-instruct');
  });

  it('a capability no listed deployment has is a 400 naming it', async () => {
    const error = (await client.chat.completions
      .create({ model: 'mixed', messages: [{ role: 'user', content: 'think' }], reasoning_effort: 'high' })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'capability_not_supported', param: 'reasoning_effort' });
    expect(upstream.requestsTo(CHAT)).toHaveLength(0);
  });

  it('a direct <provider>/<model> call uses the list too', async () => {
    const error = (await client.chat.completions
      .create({ model: 'openrouter/deepseek/deepseek-r1', messages: vision })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'capability_not_supported', param: 'messages[0].content' });
  });

  it('capabilities in config win over the list', async () => {
    const { response } = await client.chat.completions.create({ model: 'configured', messages: vision }).withResponse();
    expect(response.status).toBe(200);
    expect(sentModels()).toEqual(['meta-llama/llama-3.3-70b-instruct']);
  });
});
