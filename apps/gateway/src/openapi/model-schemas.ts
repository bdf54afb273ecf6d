import { modelSchema } from '@switchyard/core';
import { z } from 'zod';

const usdPerMillion = z.number().nonnegative().nullable();

/**
 * `pricing` of a `GET /v1/models` entry: USD per million tokens, null where unknown (see `publishedPrice` in
 * `@switchyard/accounts`, the prices the ledger bills).
 */
export const modelPricingSchema = z
  .object({
    input: usdPerMillion.meta({ description: 'USD per million prompt (input) tokens.' }),
    output: usdPerMillion.meta({ description: 'USD per million completion (output) tokens.' }),
    cached_input: usdPerMillion.meta({
      description: 'USD per million prompt tokens read from the prompt cache (the input price when none of its own).',
    }),
    cache_write: usdPerMillion.meta({
      description: 'USD per million prompt tokens written to the prompt cache (the input price when none of its own).',
    }),
    reasoning: usdPerMillion.meta({
      description: 'USD per million reasoning tokens (the output price when none of its own).',
    }),
    batch: z
      .object({
        input: z.number().nonnegative().meta({ description: 'USD per million input tokens of batch lines.' }),
        output: z.number().nonnegative().meta({ description: 'USD per million output tokens of batch lines.' }),
      })
      .nullable()
      .meta({
        description:
          "Prices of /v1/batches lines: input and output times the model's batch_discount (default 0.5 on OpenAI and Azure deployments, whose batch API runs them; 1 for batches the gateway runs, as all of them with batches.native false).",
      }),
  })
  .meta({ description: 'Prices in USD per million tokens, null where unknown: the prices the usage ledger bills.' });

const priceSourceSchema = z.enum(['config', 'catalog', 'none']).meta({
  description:
    "Where the prices come from: the model's price in config, the bundled price catalogue, or none (all null).",
});

/** An OpenAI model entry as the gateway answers it: OpenAI's `Model` plus `pricing` and `price_source`. */
export const pricedModelSchema = modelSchema.extend({ pricing: modelPricingSchema, price_source: priceSourceSchema });

/** `GET /v1/models` for OpenAI clients: `{object:"list", data}` of {@link pricedModelSchema}. */
export const pricedModelListSchema = z.object({ object: z.literal('list'), data: z.array(pricedModelSchema) });

/** One model in Anthropic's shape (`type`, `id`, `display_name`, `created_at` RFC 3339) with the gateway's prices. */
export const anthropicModelSchema = z.looseObject({
  type: z.literal('model'),
  id: z.string(),
  display_name: z.string(),
  created_at: z.string().meta({ description: 'RFC 3339 date-time.' }),
  owned_by: z.string(),
  pricing: modelPricingSchema,
  price_source: priceSourceSchema,
});

/** `GET /v1/models` for Anthropic clients (`x-api-key` or `anthropic-version`): one page. */
export const anthropicModelListSchema = z.object({
  data: z.array(anthropicModelSchema),
  has_more: z.boolean(),
  first_id: z.string().nullable(),
  last_id: z.string().nullable(),
});
