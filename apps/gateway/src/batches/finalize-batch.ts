import type { BatchLineResult, DoneLine, StoredBatch } from '@switchyard/accounts';
import type { Files } from '../files/files.js';

/** Lines read from the store per page while the output files are written. */
const PAGE = 500;

/** Token usage of a batch, as the Batch object's `usage`. */
export interface BatchUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** A batch `usage` of no tokens. */
export function emptyUsage(): BatchUsage {
  return {
    input_tokens: 0,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 0,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 0,
  };
}

/** The output or error file line of a done line. @see https://platform.openai.com/docs/api-reference/batch/request-output */
export function outputLine(batchId: string, line: DoneLine): string {
  const { response, error } = line.result;
  return `${JSON.stringify({ id: `batch_req_${batchId.slice(6)}_${line.index}`, custom_id: line.custom_id, response: response ?? null, error: error ?? null })}\n`;
}

const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** Adds the usage of an answered line (chat `prompt_tokens`/`completion_tokens`, Responses `input_tokens`/`output_tokens`). */
function addUsage(total: BatchUsage, result: BatchLineResult): void {
  const usage = (result.response?.body as { usage?: Record<string, unknown> } | undefined)?.usage;
  if (!usage || typeof usage !== 'object') return;
  const input = num(usage.prompt_tokens ?? usage.input_tokens);
  const output = num(usage.completion_tokens ?? usage.output_tokens);
  const inputDetails = (usage.prompt_tokens_details ?? usage.input_tokens_details) as
    | Record<string, unknown>
    | undefined;
  const outputDetails = (usage.completion_tokens_details ?? usage.output_tokens_details) as
    | Record<string, unknown>
    | undefined;
  total.input_tokens += input;
  total.output_tokens += output;
  total.total_tokens += input + output;
  total.input_tokens_details.cached_tokens += num(inputDetails?.cached_tokens);
  total.output_tokens_details.reasoning_tokens += num(outputDetails?.reasoning_tokens);
}

/**
 * Writes the output file (answered lines, `response.status_code` 200) and the error file (every failed line) of a
 * batch whose lines are all done, in input order, streamed page by page from the store to the file storage, as
 * `batch_output` files of the batch's owner (a file with no line is not made). Resolves with their ids (null when
 * none), the `request_counts` and the summed token `usage`.
 */
export async function writeBatchOutput(
  files: Files,
  batch: StoredBatch,
): Promise<{
  output_file_id: string | null;
  error_file_id: string | null;
  counts: { total: number; completed: number; failed: number };
  usage: BatchUsage;
}> {
  const counts = { total: 0, completed: 0, failed: 0 };
  const usage = emptyUsage();
  const write = async (failed: boolean): Promise<string | null> => {
    const id = files.newId();
    let written = 0;
    async function* lines() {
      for (let after = -1; ; ) {
        const page = await files.store.doneLines(batch.id, after, PAGE);
        if (page.length === 0) return;
        after = page.at(-1)?.index ?? after;
        for (const line of page) {
          if (line.result.failed !== failed) continue;
          written++;
          if (failed) counts.failed++;
          else {
            counts.completed++;
            addUsage(usage, line.result);
          }
          yield outputLine(batch.id, line);
        }
      }
    }
    const bytes = await files.storage.write(id, lines());
    if (written === 0) {
      await files.storage.remove(id);
      return null;
    }
    await files.store.insertFile({
      id,
      owner: batch.owner,
      bytes,
      created_at: Math.floor(Date.now() / 1000),
      expires_at: null,
      filename: `${batch.id}_${failed ? 'error' : 'output'}.jsonl`,
      purpose: 'batch_output',
    });
    return id;
  };
  const output_file_id = await write(false);
  const error_file_id = await write(true);
  counts.total = counts.completed + counts.failed;
  return { output_file_id, error_file_id, counts, usage };
}
