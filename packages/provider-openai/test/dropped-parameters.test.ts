import type { GatewayWarning } from '@switchyard/core';
import { describe, expect, it } from 'vitest';
import { OPENAI_COMPATIBLE_PRESETS, switchyardProviders } from '../src/index.js';
import { callContext, fixtures, useMockUpstream } from './helpers/openai-test-upstream.js';

// Audit (issue #22, silent drops): the OpenAI adapter and its presets speak the upstream's own wire format, so they
// drop nothing: every field, unknown ones included, reaches the upstream as sent (which answers for itself, e.g. a
// 400 for a parameter it does not support), and no warning is needed.
const { upstream, adapter } = useMockUpstream();
const request = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user' as const, content: 'hi' }],
  logit_bias: { '50256': -100 },
  logprobs: true,
  top_logprobs: 2,
  user: 'u1',
  parallel_tool_calls: false,
  seed: 7,
  service_tier: 'flex',
  x_future_parameter: { nested: true },
};

describe('OpenAI adapter parameters', () => {
  it('forwards every field, unknown ones included, and warns about none', async () => {
    upstream().route('POST /openai/v1/chat/completions', { json: fixtures.json('openai/openai-text.json') });
    const warnings: GatewayWarning[] = [];
    await adapter().chatCompletions!(request, { ...callContext(), warn: (w) => warnings.push(w) });
    expect(upstream().requests[0]!.json).toEqual(request);
    expect(warnings).toEqual([]);
  });

  it.each(OPENAI_COMPATIBLE_PRESETS.map((p) => p.name))('the %s preset forwards every field too', async (name) => {
    const factory = switchyardProviders[name]!;
    const preset = factory.create(
      factory.settingsSchema.parse({ api_key: 'preset-key-0123456789', base_url: `${upstream().url}/p/v1` }),
    );
    upstream().route('POST /p/v1/chat/completions', { json: fixtures.json('openai/openai-text.json') });
    const warnings: GatewayWarning[] = [];
    await preset.chatCompletions!(request, { ...callContext(), provider: name, warn: (w) => warnings.push(w) });
    expect(upstream().requests[0]!.json).toMatchObject({ ...request, messages: [{ role: 'user', content: 'hi' }] });
    expect(warnings).toEqual([]);
  });
});
