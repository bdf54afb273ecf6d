import type { BatchStatus } from '@switchyard/accounts';

/** The timestamp field set when a batch reaches each status (unix seconds). */
export const STATUS_TIME: Partial<Record<BatchStatus, string>> = {
  in_progress: 'in_progress_at',
  finalizing: 'finalizing_at',
  completed: 'completed_at',
  failed: 'failed_at',
  expired: 'expired_at',
  cancelling: 'cancelling_at',
  cancelled: 'cancelled_at',
};

/** Statuses after which a batch never changes again. */
export const FINAL_STATUSES: readonly BatchStatus[] = ['completed', 'failed', 'expired', 'cancelled'];

/** Unix time, seconds. */
export const nowS = () => Math.floor(Date.now() / 1000);

/**
 * A new Batch object (OpenAI's wire shape, every field present: timestamps null until reached, `errors` null unless
 * validation failed, `request_counts` of `total` lines).
 * @see https://platform.openai.com/docs/api-reference/batch/object
 */
export function newBatchObject(input: {
  id: string;
  endpoint: string;
  input_file_id: string;
  completion_window: string;
  metadata: Record<string, string> | null;
  model: string | null;
  total: number;
}): Record<string, unknown> {
  const created = nowS();
  return {
    id: input.id,
    object: 'batch',
    endpoint: input.endpoint,
    ...(input.model !== null && { model: input.model }),
    errors: null,
    input_file_id: input.input_file_id,
    completion_window: input.completion_window,
    status: 'validating',
    output_file_id: null,
    error_file_id: null,
    created_at: created,
    in_progress_at: null,
    expires_at: created + 24 * 3600,
    finalizing_at: null,
    completed_at: null,
    failed_at: null,
    expired_at: null,
    cancelling_at: null,
    cancelled_at: null,
    request_counts: { total: input.total, completed: 0, failed: 0 },
    metadata: input.metadata,
  };
}

/** `batch` moved to `status`, with that status's timestamp set now, plus `extra` fields. */
export function withStatus(
  batch: Record<string, unknown>,
  status: BatchStatus,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const field = STATUS_TIME[status];
  return { ...batch, ...extra, status, ...(field && { [field]: nowS() }) };
}
