import { useMockUpstream } from '@switchyard/testkit/vitest';
import { describe, expect, it } from 'vitest';
import { checkUnsupportedParameters, createAnthropic } from '../src/index.js';
import { callContext, chatRequest, KEY, MESSAGES, recorded } from './support.js';

const upstream = useMockUpstream({ routes: { [MESSAGES]: recorded('anthropic-text') }, clearBetweenTests: true });

describe('parameters Anthropic cannot honour', () => {
  it.each([
    ['temperature', { temperature: 1.5 }],
    ['presence_penalty', { presence_penalty: 0.5 }],
    ['frequency_penalty', { frequency_penalty: -1 }],
    ['logit_bias', { logit_bias: { '50256': -100 } }],
    ['logprobs', { logprobs: true }],
    ['top_logprobs', { top_logprobs: 3 }],
    ['modalities', { modalities: ['text', 'audio'] }],
    ['audio', { audio: { voice: 'alloy', format: 'mp3' } }],
    ['functions', { functions: [{ name: 'f' }] }],
    ['function_call', { function_call: 'auto' }],
    ['stop', { stop: ['\n'] }],
    ['top_k', { top_k: 0.5 }],
  ])('%s: 400 naming it, and nothing is sent upstream', async (param, extra) => {
    const adapter = createAnthropic({ apiKey: KEY, baseURL: upstream.url });
    const error = await adapter.chatCompletions!(chatRequest(extra), callContext()).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, param, type: 'invalid_request_error' });
    expect((error as Error).message).toContain(param);
    expect(upstream.requests).toHaveLength(0);
  });

  it('accepts neutral values of those parameters and does not send them', async () => {
    const adapter = createAnthropic({ apiKey: KEY, baseURL: upstream.url });
    const context = callContext();
    await adapter.chatCompletions!(
      chatRequest({
        temperature: 1,
        presence_penalty: 0,
        frequency_penalty: 0,
        logit_bias: {},
        logprobs: false,
        top_logprobs: 0,
        modalities: ['text'],
      }),
      context,
    );
    expect(Object.keys(upstream.requests[0]!.json as object).sort()).toEqual([
      'max_tokens',
      'messages',
      'model',
      'temperature',
    ]);
    expect(context.warnings).toEqual([]);
  });

  it('drops hints and OpenAI platform fields with one warning each, naming them', async () => {
    const adapter = createAnthropic({ apiKey: KEY, baseURL: upstream.url });
    const context = callContext();
    await adapter.chatCompletions!(
      chatRequest({ seed: 7, store: true, metadata: { team: 'a' }, service_tier: 'auto', x_custom: 1 }),
      context,
    );
    expect(context.warnings.map((w) => w.param)).toEqual(['seed', 'store', 'metadata', 'service_tier', 'x_custom']);
    expect(context.warnings[0]).toEqual({
      code: 'unsupported_parameter',
      param: 'seed',
      message: "'seed' is not supported by Anthropic models and was ignored.",
    });
    expect(Object.keys(upstream.requests[0]!.json as object).sort()).toEqual(['max_tokens', 'messages', 'model']);
  });

  it('warns about nothing it translates', () => {
    const request = chatRequest({
      max_tokens: 5,
      max_completion_tokens: 5,
      stop: 'x',
      temperature: 0.2,
      top_p: 0.5,
      top_k: 3,
      n: 2,
      stream: true,
      stream_options: { include_usage: true },
      user: 'u',
      tools: [{ type: 'function', function: { name: 'f' } }],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      response_format: { type: 'text' },
    });
    expect(checkUnsupportedParameters(request)).toEqual([]);
  });
});
