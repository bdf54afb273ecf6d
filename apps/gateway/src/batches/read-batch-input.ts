import { createInterface } from 'node:readline';
import type { BatchLineInput } from '@switchyard/accounts';
import { z } from 'zod';
import type { FileStorage } from '../files/file-storage.js';
import type { BatchEndpoint } from './batch-endpoints.js';

/** One error of a batch's input file, as the Batch object's `errors.data[]` has it. */
export interface BatchInputError {
  code: string;
  message: string;
  param: string | null;
  /** 1-based line number. */
  line: number | null;
}

/** The input lines of a batch (with each line's `model`), or what is wrong with them. */
export type BatchInput =
  | { ok: true; lines: (BatchLineInput & { model: string })[] }
  | { ok: false; errors: BatchInputError[] };

/** Most errors reported for one input file. */
const MAX_ERRORS = 100;

/** One line of a batch input file. @see https://platform.openai.com/docs/api-reference/batch/request-input */
const inputLineSchema = z.object({
  custom_id: z.string().min(1).max(512),
  method: z.literal('POST'),
  url: z.string(),
  body: z.record(z.string(), z.unknown()),
});

/**
 * Reads and checks the JSONL input file `fileId` of a batch for `endpoint`, streaming it line by line: each line a
 * JSON object `{custom_id, method: "POST", url, body}` with `url` equal to `endpoint`, a unique `custom_id`, a string
 * `body.model` and no `body.stream: true`; at most `maxLines` lines. Blank lines are skipped. Resolves with the lines
 * (bodies re-serialised) or up to 100 errors naming their lines.
 */
export async function readBatchInput(
  storage: FileStorage,
  fileId: string,
  endpoint: BatchEndpoint,
  maxLines: number,
): Promise<BatchInput> {
  const lines: (BatchLineInput & { model: string })[] = [];
  const errors: BatchInputError[] = [];
  const seen = new Set<string>();
  const fail = (line: number, code: string, message: string, param: string | null = null) => {
    if (errors.length < MAX_ERRORS) errors.push({ code, message, param, line });
  };
  let number = 0;
  const input = createInterface({ input: storage.read(fileId), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const text of input) {
    number++;
    if (text.trim() === '') continue;
    if (lines.length >= maxLines) {
      fail(number, 'too_many_requests', `The input file has more than ${maxLines} requests.`);
      break;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      fail(number, 'invalid_json_line', 'This line is not valid JSON.');
      continue;
    }
    const parsed = inputLineSchema.safeParse(json);
    if (!parsed.success) {
      const param = String(parsed.error.issues[0]?.path.join('.') || 'line');
      fail(
        number,
        'invalid_request',
        `Invalid '${param}': ${parsed.error.issues[0]?.message ?? 'invalid value'}.`,
        param,
      );
      continue;
    }
    const { custom_id, url, body } = parsed.data;
    if (url !== endpoint)
      fail(
        number,
        'mismatched_endpoint',
        `The url '${url}' of this line is not the batch's endpoint ${endpoint}.`,
        'url',
      );
    else if (typeof body.model !== 'string' || body.model === '')
      fail(number, 'missing_required_parameter', "Missing required parameter: 'body.model'.", 'body.model');
    else if (body.stream === true)
      fail(number, 'invalid_request', 'Batch requests cannot be streamed: remove body.stream.', 'body.stream');
    else if (seen.has(custom_id))
      fail(number, 'duplicate_custom_id', `The custom_id '${custom_id}' appears more than once.`, 'custom_id');
    else {
      seen.add(custom_id);
      lines.push({ index: lines.length, custom_id, body: JSON.stringify(body), model: body.model });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  if (lines.length === 0)
    return {
      ok: false,
      errors: [{ code: 'empty_file', message: 'The input file has no requests.', param: null, line: null }],
    };
  return { ok: true, lines };
}
