import { errorBodySchema, GatewayError, type ProviderErrorMapper } from '@switchyard/core';
import { mapAnthropicError } from '@switchyard/provider-anthropic';
import { mapAzureError } from '@switchyard/provider-azure';
import { mapBedrockError, mapBedrockException } from '@switchyard/provider-bedrock';
import { mapDeepgramError } from '@switchyard/provider-deepgram';
import { mapElevenLabsError } from '@switchyard/provider-elevenlabs';
import { mapGeminiError, mapGeminiStreamError } from '@switchyard/provider-google';
import { mapOpenAIError } from '@switchyard/provider-openai';
import { sseFrames } from '@switchyard/testkit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type GatewayAnswer, postJson, useScriptedUpstream } from '../helpers/malformed-upstream.js';

// Attack (issue #38 item 7, error side): upstream *error* bodies and mid-stream error events were read through
// `typeof` guards in seven hand-written mappers. Now each provider's mapper is built by core's
// `createUpstreamErrorMapper` from a zod schema of what it reads. Whatever an upstream (or a proxy, or a spoofed peer)
// sends with an error status, the client must get that status mapped right (529 -> 503 where the provider says so,
// 401/403 -> 502 `upstream_auth_failed`, 407 and anything outside 400..599 -> 502: fetch clients take a 407 for a
// network failure, found by this test), an OpenAI-shaped error body, and never the
// upstream key; never a 500 from a TypeError or a crash.

const SECRET = 'sk-errorBodySecret0123456789ABCDEF';

/** Field values an upstream may send: any JSON, the secret, or text around the secret. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constant(SECRET),
  fc.string({ maxLength: 10 }).map((text) => `${text} ${SECRET} ${text}`),
);

/** An error object of roughly the right shape, any field of any kind (or missing). */
const errorObject = fc.record(
  {
    message: fieldValue,
    type: fieldValue,
    code: fieldValue,
    param: fieldValue,
    status: fieldValue,
    details: fc.oneof(
      fieldValue,
      fc.array(fc.record({ '@type': fieldValue, reason: fieldValue, retryDelay: fieldValue }, { requiredKeys: [] }), {
        maxLength: 2,
      }),
    ),
    innererror: fieldValue,
  },
  { requiredKeys: [] },
);

/** Error body texts: not JSON at all, any JSON, or objects of every provider's error shape with fields of the wrong kind. */
const errorBodyText: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }).map((text) => `<html>${text} ${SECRET}</html>`),
  fc.string({ maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc
    .record(
      {
        error: fc.oneof(fieldValue, errorObject),
        message: fieldValue,
        Message: fieldValue,
        detail: fc.oneof(
          fieldValue,
          errorObject,
          fc.array(fc.record({ loc: fieldValue, msg: fieldValue }, { requiredKeys: [] })),
        ),
        err_msg: fieldValue,
        err_code: fieldValue,
        __type: fieldValue,
        type: fieldValue,
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
);

/** Upstream statuses: every error status, and some that are not one. */
const upstreamStatus = fc.oneof(fc.integer({ min: 400, max: 599 }), fc.constantFrom(200, 204, 302, 399, 600, 999));

/** The mappers, and whether each turns 529 (Anthropic's and OpenAI's "overloaded") into 503. */
const mappers: [string, ProviderErrorMapper, boolean][] = [
  ['openai', mapOpenAIError, true],
  ['anthropic', mapAnthropicError, true],
  ['azure', mapAzureError, true],
  ['deepgram', mapDeepgramError, true],
  ['elevenlabs', mapElevenLabsError, true],
  ['google', mapGeminiError, false],
  ['bedrock', mapBedrockError, false],
];

/** Asserts an error a client may see: a 4xx/5xx GatewayError of OpenAI's shape, free of the secret. */
function expectClientError(error: unknown): asserts error is GatewayError {
  expect(GatewayError.isInstance(error)).toBe(true);
  const gatewayError = error as GatewayError;
  expect(gatewayError.status).toBeGreaterThanOrEqual(400);
  expect(gatewayError.status).toBeLessThanOrEqual(599);
  expect(errorBodySchema.safeParse(gatewayError.toJSON()).success).toBe(true);
  expect(gatewayError.message).not.toBe('');
  expect(JSON.stringify({ body: gatewayError.toJSON(), headers: gatewayError.headers })).not.toContain(SECRET);
}

describe('malformed upstream error bodies through each provider mapper (issue #38 item 7)', () => {
  for (const [name, mapper, overloaded] of mappers) {
    it(`${name}: any body with any status gives that status mapped right, never a throw or the key`, () => {
      fc.assert(
        fc.property(upstreamStatus, errorBodyText, (status, body) => {
          const error = mapper(name, status, body, { 'retry-after': '3' }, [SECRET]);
          expectClientError(error);
          const expected =
            overloaded && status === 529 ? 503 : status >= 400 && status <= 599 && status !== 407 ? status : 502;
          expect(error.status).toBe(expected);
          expect(error.headers['retry-after'] ?? error.headers['retry-after-ms']).toBeDefined();
        }),
        { numRuns: 400 },
      );
    });
  }

  it('an unreadable body still names the provider and the status, and quotes the body redacted', () => {
    const error = mapOpenAIError('vllm', 503, `<html>Bad gateway for ${SECRET}</html>`, {}, [SECRET]);
    expect(error.status).toBe(503);
    expect(error.message).toBe(
      "The upstream provider 'vllm' answered HTTP 503: <html>Bad gateway for [REDACTED]</html>",
    );
    const shaped = mapAnthropicError(
      'anthropic',
      429,
      JSON.stringify({ type: 'error', error: { type: 42, message: ['x'] } }),
      {},
      [],
    );
    expect(shaped.toJSON().error).toMatchObject({
      message: "The upstream provider 'anthropic' answered HTTP 429.",
      type: 'invalid_request_error',
    });
    // A field of the wrong kind hides only itself: the type still maps.
    const partial = mapAnthropicError(
      'anthropic',
      429,
      JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 7 } }),
      {},
      [],
    );
    expect(partial.toJSON().error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_exceeded' });
  });

  it('mid-stream error events (Gemini bodies, Bedrock exception frames) give a 4xx/5xx, never a throw or the key', () => {
    fc.assert(
      fc.property(errorBodyText, fc.option(fc.integer({ min: 0, max: 1000 }), { nil: undefined }), (text, code) => {
        expectClientError(mapGeminiStreamError('gem', text, code, [SECRET]));
      }),
      { numRuns: 400 },
    );
    fc.assert(
      fc.property(
        fc.option(fc.string({ maxLength: 30 }), { nil: undefined }),
        fc.option(
          fc.string({ maxLength: 30 }).map((text) => `${text}${SECRET}`),
          { nil: undefined },
        ),
        (name, message) => {
          expectClientError(mapBedrockException('br', name, message, 502, [SECRET]));
        },
      ),
      { numRuns: 400 },
    );
  });
});

// The same over real HTTP: the mock upstream answers a random error status and body, the client sees it mapped.
const gateway = useScriptedUpstream(
  (url) => `
keys: ["sk-switchyard-error-bodies-0123456789"]
server: { port: 0 }
providers:
  oa: { adapter: openai, api_key: "${SECRET}", base_url: "${url}/v1" }
  an: { adapter: anthropic, api_key: "${SECRET}", base_url: "${url}" }
  az: { adapter: azure, api_key: "${SECRET}", base_url: "${url}" }
  gem: { adapter: google, api_key: "${SECRET}", base_url: "${url}/v1beta" }
  co: { adapter: cohere, api_key: "${SECRET}", base_url: "${url}" }
models:
  - { id: gpt, provider: oa, upstream: gpt-4o }
  - { id: claude, provider: an, upstream: claude-sonnet-4-5 }
  - { id: azure-chat, provider: az, upstream: my-deployment }
  - { id: gemini, provider: gem, upstream: gemini-2.5-pro }
  - { id: command, provider: co, upstream: command-a-03-2025 }
routing: { max_retries: 0 }
`,
);
const KEY = 'sk-switchyard-error-bodies-0123456789';
const chat = (model: string, stream = false): Promise<GatewayAnswer> =>
  postJson(`${gateway.url}/chat/completions`, KEY, { model, stream, messages: [{ role: 'user', content: 'hi' }] });

/** The status a client must see for an upstream error status through the gateway (credentials failures are 502). */
function clientStatus(status: number, overloaded: boolean): number {
  const mapped = overloaded && status === 529 ? 503 : status >= 400 && status <= 599 && status !== 407 ? status : 502;
  return mapped === 401 || mapped === 403 ? 502 : mapped;
}

/** Asserts an error answer over HTTP: the status, OpenAI's error shape, no key. */
function expectErrorAnswer(answer: GatewayAnswer, status: number): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.text).not.toContain(SECRET);
  expect(errorBodySchema.safeParse(JSON.parse(answer.text)).success, answer.text).toBe(true);
}

/** Asserts a stream that failed after its first byte: a 200 event stream ending with an error event, or an error answer. */
function expectStreamError(answer: GatewayAnswer): void {
  expect(answer.text).not.toContain(SECRET);
  if (answer.status !== 200) {
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThanOrEqual(599);
    expect(errorBodySchema.safeParse(JSON.parse(answer.text)).success, answer.text).toBe(true);
    return;
  }
  const events = answer.text
    .split(/\n\n/)
    .map((frame) =>
      frame
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6),
    )
    .filter((data): data is string => data !== undefined);
  expect(events.at(-1), answer.text).not.toBe('[DONE]');
  expect(errorBodySchema.safeParse(JSON.parse(events.at(-1)!)).success, answer.text).toBe(true);
}

const RUNS = 25;
const errorStatus = fc.integer({ min: 400, max: 599 });

describe('malformed upstream error answers over HTTP (issue #38 item 7)', () => {
  for (const [model, overloaded] of [
    ['gpt', true],
    ['claude', true],
    ['azure-chat', true],
    ['gemini', false],
    ['command', true],
  ] as const) {
    it(`${model}: a random error status and body reach the client mapped right`, async () => {
      await fc.assert(
        fc.asyncProperty(errorStatus, errorBodyText, async (status, body) => {
          gateway.answer({ status, headers: { 'content-type': 'application/json' }, body });
          expectErrorAnswer(await chat(model), clientStatus(status, overloaded));
        }),
        { numRuns: RUNS },
      );
    });
  }

  it('an OpenAI chat stream with a malformed error event after its first chunk ends with an error event', async () => {
    const first = JSON.stringify({
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-4o',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: null }],
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fieldValue, errorObject), async (error) => {
        gateway.answer({
          headers: { 'content-type': 'text/event-stream' },
          chunks: sseFrames([first, JSON.stringify({ error })]),
        });
        expectStreamError(await chat('gpt', true));
      }),
      { numRuns: RUNS },
    );
  });

  it('an Anthropic stream with a malformed error event after its first text ends with an error event', async () => {
    const start = {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 5, output_tokens: 1 },
      },
    };
    const block = { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } };
    const delta = { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } };
    await fc.assert(
      fc.asyncProperty(fc.oneof(fieldValue, errorObject), async (error) => {
        const events = [start, block, delta, { type: 'error', error }].map((event) => JSON.stringify(event));
        gateway.answer({ headers: { 'content-type': 'text/event-stream' }, chunks: sseFrames(events, 'typed') });
        expectStreamError(await chat('claude', true));
      }),
      { numRuns: RUNS },
    );
  });

  it('a Gemini stream that appends a malformed error body ends with an error event', async () => {
    const first = JSON.stringify({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0 }] });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fieldValue, errorObject), async (error) => {
        gateway.answer({
          headers: { 'content-type': 'text/event-stream' },
          chunks: [...sseFrames([first], 'gemini'), JSON.stringify({ error })],
        });
        expectStreamError(await chat('gemini', true));
      }),
      { numRuns: RUNS },
    );
  });
});
