import { type MockUpstream, openaiReplayRoutes } from '@switchyard/testkit';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { startGatewayFromYaml } from './helpers/test-gateway.js';
import { useGatewayWithUpstreams } from './helpers/gateway-with-upstreams.js';

// Capability-aware routing (issue #18): a request needing vision never lands on a deployment without it.
const KEY = 'sk-switchyard-capabilities-0123456789';
const CHAT = 'POST /v1/chat/completions';

let textOnly: MockUpstream;
let seeing: MockUpstream;
let client: OpenAI;

useGatewayWithUpstreams(
  {
    upstreams: {
      textOnly: { routes: openaiReplayRoutes() },
      seeing: { routes: openaiReplayRoutes() },
    },
    config: (url) => `
keys: ["${KEY}"]
server: { port: 0 }
providers:
  text: { adapter: openai, api_key: sk-text-000000, base_url: "${url.textOnly}/v1" }
  seeing: { adapter: openai, api_key: sk-seeing-000000, base_url: "${url.seeing}/v1" }
models:
  - id: pair
    targets:
      - { provider: text, upstream: gpt-4.1-nano, weight: 1, capabilities: [tools, json_schema] }
      - { provider: seeing, upstream: gpt-4.1-nano, weight: 1, capabilities: [tools, json_schema, vision] }
  - { id: blind, provider: text, upstream: gpt-4.1-nano, capabilities: [tools], fallbacks: [sees] }
  - { id: sees, provider: seeing, upstream: gpt-4.1-nano, capabilities: [vision] }
  - { id: text-only, provider: text, upstream: gpt-4.1-nano, capabilities: [tools] }
log: { level: silent }
`,
    clientTimeoutMs: 5000,
    clearBetweenTests: true,
  },
  (gateway) =>
    ({
      upstreams: { textOnly, seeing },
      openai: client,
    } = gateway),
);

const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
const visionMessages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'What is this?' }, image] }];

describe('capability-aware routing', () => {
  it('a weighted pair where one lacks vision: every image request goes to the one that has it', async () => {
    for (let i = 0; i < 12; i++) {
      const { response } = await client.chat.completions
        .create({ model: 'pair', messages: visionMessages })
        .withResponse();
      expect(response.status).toBe(200);
      expect(response.headers.get('x-switchyard-provider')).toBe('seeing');
    }
    expect(textOnly.requestsTo(CHAT)).toHaveLength(0);
    expect(seeing.requestsTo(CHAT)).toHaveLength(12);
  });

  it('the same pair still balances text requests over both deployments', async () => {
    for (let i = 0; i < 24; i++)
      await client.chat.completions.create({ model: 'pair', messages: [{ role: 'user', content: 'hi' }] });
    expect(textOnly.requestsTo(CHAT).length).toBeGreaterThan(0);
    expect(seeing.requestsTo(CHAT).length).toBeGreaterThan(0);
  });

  it('a model without vision goes straight to its fallback that has it (no failed attempt)', async () => {
    const { response } = await client.chat.completions
      .create({ model: 'blind', stream: true, messages: visionMessages })
      .withResponse();
    expect(response.headers.get('x-switchyard-model')).toBe('sees');
    expect(response.headers.get('x-switchyard-attempts')).toBe('1');
    expect(textOnly.requestsTo(CHAT)).toHaveLength(0);
  });

  it('none has it: 400 naming the capability and the field that needs it', async () => {
    const error = (await client.chat.completions
      .create({ model: 'text-only', messages: visionMessages })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'capability_not_supported',
      param: 'messages[0].content',
    });
    expect(error.message).toContain("'vision'");
    expect(textOnly.requestsTo(CHAT)).toHaveLength(0);
  });

  it('structured outputs need json_schema: 400 naming it when no deployment declares it', async () => {
    const error = (await client.chat.completions
      .create({
        model: 'text-only',
        messages: [{ role: 'user', content: 'hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
      })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error.status).toBe(400);
    expect(error.error).toMatchObject({ code: 'capability_not_supported', param: 'response_format' });
    expect(error.message).toContain("'json_schema'");
  });

  it('an unknown capability name in config is a config error naming it', async () => {
    await expect(
      (async () =>
        startGatewayFromYaml(`
keys: ["${KEY}"]
server: { port: 0 }
providers:
  text: { adapter: openai, api_key: sk-text-000000, base_url: "${textOnly.url}/v1" }
models:
  - { id: m, provider: text, capabilities: [telepathy] }
log: { level: silent }
`))(),
    ).rejects.toThrow(/models\.0\.capabilities\.0: Invalid option/);
  });
});
