import { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { useEndpointsGateway } from './helpers/endpoints-gateway.js';

// Per-image prices (`price.images`, USD per image by quality/size, size, quality or default) booked in the ledger for
// image generations, edits and variations, through the official openai SDK.
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

const { createKey, client, ledgerOf } = useEndpointsGateway(`
  - { id: gpt-image-1, provider: openai, price: { input: 5, output: 40, images: { "high/1024x1536": 0.25, "1024x1024": 0.04, hd: 0.12, default: 0.02 } } }
  - { id: dall-e-2, provider: openai, price: { input: 0, output: 0, images: { "256x256": 0.016 } } }
  - { id: dall-e-3, provider: openai, price: { input: 0, output: 0 } }
`);

describe('per-image prices', () => {
  it('books generations, edits and variations at their per-image price by quality and size', async () => {
    const { id, key } = await createKey({ name: 'images' });
    const openai = client(key);
    const generated = await openai.images
      .generate({ model: 'gpt-image-1', prompt: 'a lighthouse', n: 2, size: '1024x1536', quality: 'high' })
      .withResponse();
    // Two images at the `high/1024x1536` price.
    expect(Number(generated.response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(0.5, 10);
    await openai.images.edit({
      model: 'gpt-image-1',
      image: await toFile(png, 'a.png', { type: 'image/png' }),
      prompt: 'add a boat',
      size: '1024x1024',
      quality: 'medium',
    });
    // Asked for 3, the upstream answers 2 (the recording has two images): the 2 returned are billed.
    const variation = await openai.images
      .createVariation({
        model: 'dall-e-2',
        image: await toFile(png, 'b.png', { type: 'image/png' }),
        n: 3,
        size: '256x256',
      })
      .withResponse();
    expect(variation.data.data).toHaveLength(2);
    expect(Number(variation.response.headers.get('x-switchyard-cost-usd'))).toBeCloseTo(0.032, 10);
    await openai.images.generate({ model: 'gpt-image-1', prompt: 'a fox', quality: 'hd' as 'high' });
    await openai.images.generate({ model: 'gpt-image-1', prompt: 'a cat', size: '1536x1024' });
    await openai.images.generate({ model: 'dall-e-3', prompt: 'no per-image price' });
    // A streamed edit asking for 2 images whose upstream completes 1 (OpenAI's documented stream): 1 billed.
    const events: string[] = [];
    const stream = await openai.images.edit({
      model: 'gpt-image-1',
      image: await toFile(png, 'c.png', { type: 'image/png' }),
      prompt: 'add a moon',
      n: 2,
      size: '1024x1024',
      stream: true,
    });
    for await (const event of stream) events.push(event.type);
    expect(events.filter((t) => t === 'image_edit.completed')).toHaveLength(1);
    const rows = (await ledgerOf(id, 7)).reverse();
    expect(rows.map((r) => [r.model, r.status])).toEqual([
      ['gpt-image-1', 200],
      ['gpt-image-1', 200],
      ['dall-e-2', 200],
      ['gpt-image-1', 200],
      ['gpt-image-1', 200],
      ['dall-e-3', 200],
      ['gpt-image-1', 200],
    ]);
    const costs = rows.map((r) => r.cost_usd);
    // Each the images returned (generations and variations: the recording's 2, the edit 1) at: quality/size, then size
    // (medium/1024x1024 is not priced), size, quality, default, no per-image price, and the streamed edit's one image.
    for (const [i, expected] of [0.5, 0.04, 0.032, 0.24, 0.04, 0, 0.04].entries())
      expect(costs[i]).toBeCloseTo(expected, 10);
  });
});
