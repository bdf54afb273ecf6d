import { z } from 'zod';

/** OpenAI's File object as the gateway answers it. @see https://platform.openai.com/docs/api-reference/files/object */
export const fileObjectSchema = z.object({
  id: z.string(),
  object: z.literal('file'),
  bytes: z.number().int(),
  created_at: z.number().int(),
  expires_at: z.number().int().optional(),
  filename: z.string(),
  purpose: z.enum(['assistants', 'batch', 'fine-tune', 'vision', 'user_data', 'evals', 'batch_output']),
  status: z.literal('processed'),
  status_details: z.null(),
});

/** OpenAI's Batch object as the gateway answers it. @see https://platform.openai.com/docs/api-reference/batch/object */
export const batchObjectSchema = z.object({
  id: z.string(),
  object: z.literal('batch'),
  endpoint: z.string(),
  model: z.string().optional(),
  errors: z
    .object({
      object: z.literal('list'),
      data: z.array(
        z.object({
          code: z.string(),
          message: z.string(),
          param: z.string().nullable(),
          line: z.number().int().nullable(),
        }),
      ),
    })
    .nullable(),
  input_file_id: z.string(),
  completion_window: z.string(),
  status: z.enum([
    'validating',
    'failed',
    'in_progress',
    'finalizing',
    'completed',
    'expired',
    'cancelling',
    'cancelled',
  ]),
  output_file_id: z.string().nullable(),
  error_file_id: z.string().nullable(),
  created_at: z.number().int(),
  in_progress_at: z.number().int().nullable(),
  expires_at: z.number().int().nullable(),
  finalizing_at: z.number().int().nullable(),
  completed_at: z.number().int().nullable(),
  failed_at: z.number().int().nullable(),
  expired_at: z.number().int().nullable(),
  cancelling_at: z.number().int().nullable(),
  cancelled_at: z.number().int().nullable(),
  request_counts: z.object({ total: z.number().int(), completed: z.number().int(), failed: z.number().int() }),
  usage: z
    .object({
      input_tokens: z.number().int(),
      input_tokens_details: z.object({ cached_tokens: z.number().int() }),
      output_tokens: z.number().int(),
      output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
      total_tokens: z.number().int(),
    })
    .optional(),
  metadata: z.record(z.string(), z.string()).nullable(),
});

/** A page of a list (`first_id`, `last_id`, `has_more`). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    object: z.literal('list'),
    data: z.array(item),
    first_id: z.string().nullable(),
    last_id: z.string().nullable(),
    has_more: z.boolean(),
  });

/** A running batch as `GET /admin/batches` lists it: the Batch object plus its key and who runs it. */
export const adminBatchSchema = batchObjectSchema.extend({
  key_id: z.string().meta({ description: 'The virtual key that created it (`static` for a config key).' }),
  key_name: z.string().nullable(),
  runner: z.string().meta({ description: '`gateway` (run line by line), or the provider whose batch API runs it.' }),
});
