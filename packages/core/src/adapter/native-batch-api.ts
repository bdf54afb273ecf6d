import { z } from 'zod';
import type { AdapterCallContext } from './adapter-context.js';

/** The statuses of a Batch object. @see https://platform.openai.com/docs/api-reference/batch/object */
export const BATCH_STATUSES = [
  'validating',
  'failed',
  'in_progress',
  'finalizing',
  'completed',
  'expired',
  'cancelling',
  'cancelled',
] as const;

/**
 * An upstream's Batch object, as the gateway reads it: `id`, `status`, `request_counts` (lines), `output_file_id`,
 * `error_file_id` and `errors` (validation failures), every other field kept as sent.
 * @see https://platform.openai.com/docs/api-reference/batch/object
 */
export const upstreamBatchSchema = z.looseObject({
  id: z.string().min(1).max(256),
  status: z.enum(BATCH_STATUSES),
  request_counts: z
    .looseObject({
      total: z.number().int().nonnegative(),
      completed: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
    })
    .nullish(),
  output_file_id: z.string().max(256).nullish(),
  error_file_id: z.string().max(256).nullish(),
  errors: z.looseObject({ data: z.array(z.looseObject({})).nullish() }).nullish(),
});

/** An upstream's Batch object (see {@link upstreamBatchSchema}). */
export type UpstreamBatch = z.infer<typeof upstreamBatchSchema>;

/** An upstream's File object as read after an upload: its `id`. @see https://platform.openai.com/docs/api-reference/files/object */
export const upstreamFileSchema = z.looseObject({ id: z.string().min(1).max(256) });

/**
 * A provider's own Batch API (OpenAI's `/files` + `/batches`, Azure OpenAI's), which runs a batch upstream at the
 * provider's batch price (half price on OpenAI and Azure). The gateway uploads the input file (each line's
 * `body.model` already the upstream id and `url` already {@link endpointPath}), creates the batch, polls it, forwards a
 * cancel, and downloads the output and error files when it ends. Errors as for the adapter's other methods
 * (`GatewayError` with the upstream's status and error body; 502/504 for transport failures).
 * @see https://platform.openai.com/docs/api-reference/batch
 */
export interface NativeBatchApi {
  /** The gateway endpoints (`/v1/chat/completions`...) this upstream runs batches of. */
  readonly endpoints: readonly string[];
  /** The endpoint as this upstream names it, in the batch and in each input line's `url` (Azure: without `/v1`). */
  endpointPath(endpoint: string): string;
  /** Uploads a JSONL input file (purpose `batch`), streamed from `data`; resolves with the upstream file id. */
  uploadFile(file: { filename: string; data: Blob }, context: AdapterCallContext): Promise<{ id: string }>;
  /** Creates a batch of an uploaded input file. */
  createBatch(
    request: {
      input_file_id: string;
      endpoint: string;
      completion_window: string;
      metadata?: Record<string, string> | null;
    },
    context: AdapterCallContext,
  ): Promise<UpstreamBatch>;
  /** The batch `id` as it stands. */
  retrieveBatch(id: string, context: AdapterCallContext): Promise<UpstreamBatch>;
  /** Asks the upstream to cancel batch `id`; resolves with it (usually `cancelling`). */
  cancelBatch(id: string, context: AdapterCallContext): Promise<UpstreamBatch>;
  /** The bytes of upstream file `id` (an output or error file), streamed as they arrive, never buffered whole. */
  fileContent(id: string, context: AdapterCallContext): Promise<AsyncIterable<Uint8Array>>;
}
