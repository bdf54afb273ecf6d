import { describe, expect, it } from 'vitest';
import { callContext, fixtures, useMockUpstream } from './helpers/openai-test-upstream.js';

const { upstream, adapter } = useMockUpstream();

describe('embeddings, images and models', () => {
  it('forwards an embeddings request and returns the answer unchanged', async () => {
    const recorded = fixtures.json('openai/openai-embedding.json');
    upstream().route('POST /openai/v1/embeddings', { json: recorded });
    const request = {
      model: 'text-embedding-3-small',
      input: ['a', 'b'],
      encoding_format: 'float' as const,
      dimensions: 5,
    };
    expect(await adapter().embeddings!(request, callContext())).toEqual(recorded);
    expect(upstream().requests[0]!.json).toEqual(request);
  });

  it('forwards an image generation and returns the images unchanged', async () => {
    const recorded = fixtures.json('openai/openai-image.json');
    upstream().route('POST /openai/v1/images/generations', { json: recorded });
    const request = {
      model: 'dall-e-3',
      prompt: 'a sea otter',
      n: 2,
      size: '1024x1024',
      response_format: 'b64_json' as const,
    };
    expect(await adapter().imageGenerations!(request, callContext())).toEqual(recorded);
    expect(upstream().requests[0]!.json).toEqual(request);
  });

  it("keeps an image error's status, message, type, param and code", async () => {
    const recorded = fixtures.json<{ error: unknown }>('openai/gpt-image-response-format-error.json');
    upstream().route('POST /openai/v1/images/generations', { status: 400, json: recorded });
    const error = await adapter().imageGenerations!(
      { model: 'gpt-image-1', prompt: 'x', response_format: 'url' },
      callContext(),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400 });
    expect((error as { toJSON(): unknown }).toJSON()).toEqual(recorded);
  });

  it('lists the upstream models with GET /models', async () => {
    upstream().route('GET /openai/v1/models', {
      json: { object: 'list', data: [fixtures.json('openai/spec-examples/retrievemodel-default.json')] },
    });
    expect(await adapter().listModels!(callContext())).toEqual([{ id: 'VAR_chat_model_id', created: 1686935002 }]);
  });

  it('reads the capabilities an OpenRouter-style list reports (supported_parameters, architecture.input_modalities)', async () => {
    upstream().route('GET /openai/v1/models', { json: fixtures.json('openai-compatible/openrouter-models.json') });
    const listed = Object.fromEntries((await adapter().listModels!(callContext())).map((m) => [m.id, m.capabilities]));
    const known = ['tools', 'json_schema', 'reasoning', 'vision', 'audio'];
    expect(listed).toEqual({
      'openai/gpt-4o-mini': { known, supported: ['tools', 'json_schema', 'vision'] },
      'meta-llama/llama-3.3-70b-instruct': { known, supported: ['tools'] },
      'deepseek/deepseek-r1': { known, supported: ['reasoning'] },
      'openai/gpt-4o-audio-preview': { known, supported: ['tools', 'json_schema', 'audio'] },
    });
  });
});
