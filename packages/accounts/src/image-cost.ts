import type { ModelPrice } from '@switchyard/core';

/** The operations that make images, priced per image when the model has `price.images`. */
export const IMAGE_OPERATIONS: readonly string[] = ['imageGenerations', 'imageEdits', 'imageVariations'];

/** A text or number field of a request body (multipart fields arrive as text). */
function field(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/**
 * The price of one image of a request (`body`: the images request, `size` and `quality` as sent) in `images` (USD per
 * image by key): the first of `<quality>/<size>` (e.g. `high/1024x1536`), `<size>`, `<quality>` and `default` that is
 * set; undefined when none is.
 */
export function perImagePrice(
  images: Readonly<Record<string, number>>,
  body: Record<string, unknown>,
): number | undefined {
  const size = field(body, 'size');
  const quality = field(body, 'quality');
  const keys = [quality && size && `${quality}/${size}`, size, quality, 'default'];
  for (const key of keys) if (key && images[key] !== undefined) return images[key];
  return undefined;
}

/**
 * The cost in USD of an images call answered with `count` images (the upstream's answer's, as core reports them in
 * `CallSettlement.images`; without it the request's `n`, else 1) at the model's
 * per-image prices (`price.images`, see {@link perImagePrice}); undefined when the operation makes no images or the
 * model has no per-image price for it (its tokens are then priced as any call's).
 */
export function imageCostUsd(
  price: ModelPrice | undefined,
  operation: string | undefined,
  body: unknown,
  count?: number,
): number | undefined {
  if (!price?.images || !operation || !IMAGE_OPERATIONS.includes(operation) || !body || typeof body !== 'object')
    return undefined;
  const request = body as Record<string, unknown>;
  const each = perImagePrice(price.images, request);
  if (each === undefined) return undefined;
  if (count !== undefined) return each * count;
  const n = Number(field(request, 'n') ?? 1);
  return each * (Number.isFinite(n) && n > 0 ? n : 1);
}
