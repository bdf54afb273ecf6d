import { describe, expect, it } from 'vitest';
import { imageCostUsd } from '../src/index.js';

const price = { input: 5, output: 40, images: { '1024x1024': 0.04, default: 0.02 } };

describe('imageCostUsd', () => {
  it('bills the images the upstream returned, not the n asked for', () => {
    expect(imageCostUsd(price, 'imageGenerations', { n: 4, size: '1024x1024' }, 2)).toBeCloseTo(0.08, 12);
    expect(imageCostUsd(price, 'imageEdits', { n: 2 }, 0)).toBe(0);
  });

  it("falls back to the request's n (multipart text too), else 1, when the count is not known", () => {
    expect(imageCostUsd(price, 'imageVariations', { n: '3' })).toBeCloseTo(0.06, 12);
    expect(imageCostUsd(price, 'imageGenerations', { size: '1024x1024' })).toBeCloseTo(0.04, 12);
  });

  it('is undefined for other operations and models without per-image prices', () => {
    expect(imageCostUsd(price, 'embeddings', { n: 2 }, 2)).toBeUndefined();
    expect(imageCostUsd({ input: 1, output: 1 }, 'imageGenerations', { n: 2 }, 2)).toBeUndefined();
  });
});
