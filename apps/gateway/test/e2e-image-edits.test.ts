import { multipartField, testkitFixtures } from '@switchyard/testkit';
import { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { useEndpointsGateway } from './helpers/endpoints-gateway.js';

// `POST /v1/images/edits` and `POST /v1/images/variations` through the official openai SDK (client.images.edit,
// client.images.createVariation) over real HTTP: OpenAI and Azure (edits) get the multipart form passed on; other
// providers (and Azure for variations, which it does not serve) answer 400 unsupported_operation.
const fixtures = testkitFixtures();
const editAnswer = fixtures.json<Record<string, unknown>>('openai/openai-image-edit.json');
const imageAnswer = fixtures.json<Record<string, unknown>>('openai/openai-image.json');
const png = (seed: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, seed, seed, seed, seed]);

const { gateway, createKey, client, ledgerOf } = useEndpointsGateway(
  `
  - { id: gpt-image-1, provider: openai }
  - { id: dall-e-2, provider: openai }
  - { id: azure-image, provider: azure, upstream: my-image-deployment }
  - { id: claude, provider: anthropic, upstream: claude-sonnet-4-5-20250929 }
`,
  {
    'POST /openai/deployments/my-image-deployment/images/edits': {
      json: fixtures.json('openai/openai-image-edit.json'),
    },
  },
);
const upstream = () => gateway.upstreams.upstream;
const file = async (seed: number, name: string) => toFile(png(seed), name, { type: 'image/png' });

describe('POST /v1/images/edits', () => {
  it('passes several images, the mask and every field to OpenAI as multipart, and books a ledger row', async () => {
    const { id, key } = await createKey({ name: 'edits' });
    const res = await client(key).images.edit({
      model: 'gpt-image-1',
      image: [await file(1, 'one.png'), await file(2, 'two.png')],
      mask: await file(3, 'mask.png'),
      prompt: 'A sea otter wearing a hat',
      size: '1024x1024',
      quality: 'high',
      background: 'opaque',
      output_format: 'png',
      n: 1,
    });
    expect(res).toEqual(editAnswer);
    const sent = upstream().requestsTo('POST /v1/images/edits').at(-1)!;
    expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-openai-0000');
    for (const [name, value] of Object.entries({
      model: 'gpt-image-1',
      prompt: 'A sea otter wearing a hat',
      size: '1024x1024',
      quality: 'high',
      background: 'opaque',
      output_format: 'png',
      n: '1',
    })) {
      expect(multipartField(sent, name), name).toBe(value);
    }
    expect(sent.bodyText.match(/name="image\[\]"; filename="(one|two)\.png"/g)).toHaveLength(2);
    expect(sent.bodyText).toContain('name="mask"; filename="mask.png"');
    for (const seed of [1, 2, 3]) expect(sent.body.includes(Buffer.from(png(seed)))).toBe(true);
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({ model: 'gpt-image-1', provider: 'openai', status: 200, stream: false });
  });

  it('sends one image as `image`', async () => {
    const { key } = await createKey({ name: 'edits-one' });
    await client(key).images.edit({ model: 'gpt-image-1', image: await file(4, 'only.png'), prompt: 'Add a hat' });
    const sent = upstream().requestsTo('POST /v1/images/edits').at(-1)!;
    expect(sent.bodyText).toContain('name="image"; filename="only.png"');
    expect(sent.bodyText).not.toContain('name="image[]"');
  });

  it('streams partial images as the upstream sends them, metered from the completed event', async () => {
    const { id, key } = await createKey({ name: 'edits-stream' });
    const stream = await client(key).images.edit({
      model: 'gpt-image-1',
      image: await file(5, 'a.png'),
      prompt: 'Add a hat',
      stream: true,
      partial_images: 1,
    });
    const events: { type: string; b64_json?: string }[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.type)).toEqual(['image_edit.partial_image', 'image_edit.completed']);
    expect(events[1]).toMatchObject({
      b64_json: '...',
      usage: { input_tokens: 50, output_tokens: 50, total_tokens: 100 },
    });
    expect(multipartField(upstream().requestsTo('POST /v1/images/edits').at(-1)!, 'stream')).toBe('true');
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({ stream: true, status: 200, prompt_tokens: 50, completion_tokens: 50 });
  });

  it('passes edits to an Azure deployment', async () => {
    const { key } = await createKey({ name: 'edits-azure' });
    const res = await client(key).images.edit({
      model: 'azure-image',
      image: await file(6, 'a.png'),
      prompt: 'Add a hat',
    });
    expect(res).toEqual(editAnswer);
    const sent = upstream().requestsTo('POST /openai/deployments/my-image-deployment/images/edits').at(-1)!;
    expect(sent.headers['api-key']).toBe('azure-upstream-0000');
    expect(multipartField(sent, 'model')).toBe('my-image-deployment');
    expect(sent.body.includes(Buffer.from(png(6)))).toBe(true);
  });

  it('answers 400 unsupported_operation for providers without image edits, booked', async () => {
    const { id, key } = await createKey({ name: 'edits-unsupported' });
    const error = await client(key)
      .images.edit({ model: 'claude', image: await file(7, 'a.png'), prompt: 'Add a hat' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      status: 400,
      code: 'unsupported_operation',
      param: 'model',
      type: 'invalid_request_error',
    });
    expect(upstream().requests).toHaveLength(0);
    expect((await ledgerOf(id, 1))[0]!.status).toBe(400);
  });

  it('refuses bad input with a 400 naming the field, and a form that is not multipart with 415', async () => {
    const { key } = await createKey({ name: 'edits-bad' });
    const bad = (body: Record<string, unknown>) =>
      client(key)
        .images.edit(body as never)
        .catch((e: unknown) => e);
    expect(await bad({ model: 'gpt-image-1', image: await file(8, 'a.png'), prompt: 'x', n: 11 })).toMatchObject({
      status: 400,
      param: 'n',
      type: 'invalid_request_error',
    });
    expect(
      await bad({ model: 'gpt-image-1', image: await file(8, 'a.png'), prompt: 'x', output_format: 'gif' }),
    ).toMatchObject({ status: 400, param: 'output_format' });
    expect(await bad({ model: 'gpt-image-1', image: await file(8, 'a.png') })).toMatchObject({
      status: 400,
      param: 'prompt',
    });
    const form = new FormData();
    form.set('model', 'gpt-image-1');
    form.set('prompt', 'x');
    const missing = await fetch(`${gateway.url}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: {
        message: "Missing required parameter: 'image'.",
        type: 'invalid_request_error',
        param: 'image',
        code: 'missing_required_parameter',
      },
    });
    const json = await fetch(`${gateway.url}/images/edits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: '{"prompt":"x"}',
    });
    expect(json.status).toBe(415);
    expect(upstream().requests).toHaveLength(0);
  });
});

describe('POST /v1/images/variations', () => {
  it('passes the image and fields to OpenAI as multipart, and books a ledger row', async () => {
    const { id, key } = await createKey({ name: 'variations' });
    const res = await client(key).images.createVariation({
      model: 'dall-e-2',
      image: await file(9, 'otter.png'),
      n: 2,
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(res).toEqual(imageAnswer);
    const sent = upstream().requestsTo('POST /v1/images/variations').at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sk-upstream-openai-0000');
    expect(multipartField(sent, 'model')).toBe('dall-e-2');
    expect(multipartField(sent, 'n')).toBe('2');
    expect(multipartField(sent, 'size')).toBe('256x256');
    expect(multipartField(sent, 'response_format')).toBe('b64_json');
    expect(sent.bodyText).toContain('name="image"; filename="otter.png"');
    expect(sent.body.includes(Buffer.from(png(9)))).toBe(true);
    const [row] = await ledgerOf(id, 1);
    expect(row).toMatchObject({ model: 'dall-e-2', provider: 'openai', status: 200 });
  });

  it('answers 400 unsupported_operation on Azure (no variations there) and Anthropic; 400 naming a bad field', async () => {
    const { key } = await createKey({ name: 'variations-unsupported' });
    for (const model of ['azure-image', 'claude']) {
      const error = await client(key)
        .images.createVariation({ model, image: await file(10, 'a.png') })
        .catch((e: unknown) => e);
      expect(error, model).toMatchObject({ status: 400, code: 'unsupported_operation', param: 'model' });
    }
    const bad = await client(key)
      .images.createVariation({ model: 'dall-e-2', image: await file(10, 'a.png'), size: '2048x2048' as never })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({ status: 400, param: 'size' });
    expect(upstream().requests).toHaveLength(0);
  });
});
