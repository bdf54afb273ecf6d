import type { Accounts, BatchStatus, Principal, StoredBatch } from '@switchyard/accounts';
import { estimateCall, NATIVE_BATCH_DISCOUNT } from '@switchyard/accounts';
import { type Gateway, GatewayError, invalidRequestError } from '@switchyard/core';
import { z } from 'zod';
import type { Files } from '../files/files.js';
import { newId } from '../files/new-id.js';
import { BATCH_ENDPOINTS, type BatchEndpoint, isBatchEndpoint } from './batch-endpoints.js';
import { FINAL_STATUSES, newBatchObject, withStatus } from './batch-object.js';
import { keyBudgetLeft } from './key-budget-left.js';
import type { NativeBatches } from './native-batches.js';
import { readBatchInput } from './read-batch-input.js';

/** Body of `POST /v1/batches`. @see https://platform.openai.com/docs/api-reference/batch/create */
export const createBatchSchema = z.strictObject({
  input_file_id: z.string().min(1).max(64),
  endpoint: z.string(),
  completion_window: z.literal('24h'),
  metadata: z.record(z.string().max(64), z.string().max(512)).nullable().optional(),
});

/** Query of `GET /v1/batches`. */
const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  after: z.string().max(64).optional(),
});

/** Endpoints OpenAI batches and this gateway does not (yet). */
const NOT_SERVED = ['/v1/moderations', '/v1/images/generations', '/v1/images/edits', '/v1/videos'];

/** Statuses whose `request_counts` are read live from the lines. */
const RUNNING: readonly BatchStatus[] = ['in_progress', 'cancelling', 'finalizing'];

const badParam = (error: z.ZodError) => {
  const issue = error.issues[0];
  const param = String(issue?.path.join('.') || 'body');
  return invalidRequestError(`Invalid '${param}': ${issue?.message ?? 'invalid value'}.`, param);
};

/** OpenAI's 404 for a batch that does not exist for this key. */
const noSuchBatch = (id: string) =>
  new GatewayError({
    status: 404,
    type: 'invalid_request_error',
    param: 'batch_id',
    code: null,
    message: `No such Batch object: ${id}`,
  });

/** Who creates a batch: the key's owner hash and, with accounts, its principal. */
export interface BatchCaller {
  owner: string;
  /** What `gateway.authenticate()` returned (with accounts: the key's {@link Principal}). */
  caller: unknown;
}

/**
 * `/v1/batches` of every key, run by the gateway itself (see `BatchRunner`): creation checks the input file (purpose
 * `batch`, every line `{custom_id, method, url, body}` for the batch's endpoint) and the key's budget, then stores the
 * job with its lines; retrieve and list show live `request_counts`; cancel moves it to `cancelling`. A batch belongs
 * to the key that created it (another key gets 404).
 * @see https://platform.openai.com/docs/api-reference/batch
 */
export class Batches {
  constructor(
    readonly files: Files,
    readonly gateway: Gateway,
    readonly options: { maxLines: number; accounts?: Accounts; native?: NativeBatches },
  ) {}

  /**
   * True when batches of deployments with a batch API of their own run there (config `batches.native`, default true);
   * false when the gateway runs every batch (their lines billed without the native discount).
   */
  get runsNative(): boolean {
    return this.options.native?.options.enabled ?? false;
  }

  /** Creates a batch; throws 400 naming a bad field, 404 for an unknown input file, 429 `insufficient_quota` over budget. */
  async create(body: unknown, who: BatchCaller): Promise<Record<string, unknown>> {
    const parsed = createBatchSchema.safeParse(body);
    if (!parsed.success) throw badParam(parsed.error);
    const { input_file_id, endpoint, completion_window, metadata } = parsed.data;
    if (!isBatchEndpoint(endpoint)) {
      const why = NOT_SERVED.includes(endpoint)
        ? `this gateway does not run batches of ${endpoint} yet`
        : 'not an endpoint batches can run';
      throw invalidRequestError(
        `Invalid 'endpoint' ${endpoint}: ${why}. Use one of ${Object.keys(BATCH_ENDPOINTS).join(', ')}.`,
        'endpoint',
      );
    }
    const file = await this.files.get(input_file_id, who.owner);
    if (file.purpose !== 'batch')
      throw invalidRequestError(
        `The file ${input_file_id} has purpose '${file.purpose}'; batch input files need purpose 'batch'.`,
        'input_file_id',
      );
    const input = await readBatchInput(this.files.storage, input_file_id, endpoint, this.options.maxLines);
    const id = newId('batch_');
    const keyId = keyIdOf(who.caller);
    const object = newBatchObject({
      id,
      endpoint,
      input_file_id,
      completion_window,
      metadata: metadata ?? null,
      model: input.ok ? (input.lines[0]?.model ?? null) : null,
      total: input.ok ? input.lines.length : 0,
    });
    const stored: StoredBatch = {
      id,
      owner: who.owner,
      key_id: keyId,
      runner: 'gateway',
      upstream_id: null,
      status: 'failed',
      batch: object,
    };
    if (!input.ok) {
      const failed = withStatus(object, 'failed', { errors: { object: 'list', data: input.errors } });
      await this.files.store.insertBatch({ ...stored, batch: failed }, []);
      return failed;
    }
    const native = this.options.native?.targetOf(endpoint, input.lines);
    await this.#checkBudget(who.caller, endpoint, input.lines, native !== undefined);
    if (native) {
      // Run by the provider's own batch API: the lines live upstream.
      const submitted = await this.options.native?.submit(stored, input.lines, native);
      if (submitted) {
        await this.files.store.insertBatch(submitted, []);
        return submitted.batch;
      }
    }
    const running = withStatus(object, 'in_progress');
    await this.files.store.insertBatch({ ...stored, status: 'in_progress', batch: running }, input.lines);
    return running;
  }

  /** Refuses (429 `insufficient_quota`) a batch whose estimated cost exceeds what is left of the key's budget. */
  async #checkBudget(
    caller: unknown,
    endpoint: BatchEndpoint,
    lines: readonly { body: string; model: string }[],
    native: boolean,
  ): Promise<void> {
    const budget = await keyBudgetLeft(this.options.accounts, caller as Principal | undefined);
    if (!budget) return;
    let estimate = 0;
    for (const line of lines) {
      try {
        const plan = this.gateway.router.plan(line.model);
        const discount = plan.models[0]?.targets[0]?.price?.batch_discount ?? (native ? NATIVE_BATCH_DISCOUNT : 1);
        estimate +=
          estimateCall(BATCH_ENDPOINTS[endpoint], JSON.parse(line.body) as Record<string, unknown>, plan).costUsd *
          discount;
      } catch {
        // An unknown model fails its line at run time (404), costing nothing.
      }
    }
    const remaining = budget.left;
    if (estimate > remaining) {
      throw new GatewayError({
        status: 429,
        type: 'insufficient_quota',
        code: 'insufficient_quota',
        param: 'input_file_id',
        message: `This batch's estimate of ${estimate.toFixed(6)} USD (${lines.length} requests) exceeds the remaining ${Math.max(0, remaining).toFixed(6)} USD of this key's budget of ${budget.budget} USD per ${budget.period}.`,
      });
    }
  }

  /** The batch `id` of `owner` with live `request_counts` while it runs; throws 404 when it is not theirs. */
  async get(id: string, owner: string): Promise<Record<string, unknown>> {
    const stored = id.startsWith('batch_') ? await this.files.store.getBatch(id, owner) : undefined;
    if (!stored) throw noSuchBatch(id);
    return this.#view(stored);
  }

  async #view(stored: StoredBatch): Promise<Record<string, unknown>> {
    if (!RUNNING.includes(stored.status)) return stored.batch;
    const counts = await this.files.store.lineCounts(stored.id);
    if (counts.total === 0) return stored.batch;
    return {
      ...stored.batch,
      request_counts: { total: counts.total, completed: counts.completed, failed: counts.failed },
    };
  }

  /**
   * The batches of every key still running (`validating`, `in_progress`, `finalizing`, `cancelling`), oldest first, at
   * most `limit`, each with its live `request_counts`, `key_id` and `runner` (`gateway` or the provider running it):
   * the console's view of batch progress.
   */
  async active(limit = 100): Promise<Record<string, unknown>[]> {
    const { store } = this.files;
    const ids = await store.batchesWithStatus(['validating', 'in_progress', 'finalizing', 'cancelling']);
    const rows: Record<string, unknown>[] = [];
    for (const id of ids.slice(0, limit)) {
      const stored = await store.getBatch(id);
      if (stored) rows.push({ ...(await this.#view(stored)), key_id: stored.key_id, runner: stored.runner });
    }
    return rows;
  }

  /** A page of `owner`'s batches, newest first (`limit` 1-100, default 20; `after` a batch id); throws 400 naming a bad parameter. */
  async list(owner: string, query: unknown): Promise<{ data: Record<string, unknown>[]; has_more: boolean }> {
    const parsed = listQuerySchema.safeParse(query);
    if (!parsed.success) throw badParam(parsed.error);
    const rows = await this.files.store.listBatches(owner, parsed.data.limit + 1, parsed.data.after);
    const data = await Promise.all(rows.slice(0, parsed.data.limit).map((row) => this.#view(row)));
    return { data, has_more: rows.length > parsed.data.limit };
  }

  /**
   * Cancels batch `id` of `owner`: an `in_progress` batch moves to `cancelling` (the runner then fails its open lines
   * `batch_cancelled` and ends it `cancelled`); a batch already cancelling or cancelled is returned as it is. Throws 404
   * when it is not theirs, 409 when it has already ended otherwise.
   */
  async cancel(id: string, owner: string): Promise<Record<string, unknown>> {
    const stored = id.startsWith('batch_') ? await this.files.store.getBatch(id, owner) : undefined;
    if (!stored) throw noSuchBatch(id);
    if (stored.status === 'cancelling' || stored.status === 'cancelled') return this.#view(stored);
    if (FINAL_STATUSES.includes(stored.status) || stored.status === 'finalizing') {
      throw new GatewayError({
        status: 409,
        type: 'invalid_request_error',
        code: null,
        param: null,
        message: `Cannot cancel a batch with status '${stored.status}'.`,
      });
    }
    if (stored.runner !== 'gateway') await this.options.native?.cancel(stored);
    const cancelling: StoredBatch = { ...stored, status: 'cancelling', batch: withStatus(stored.batch, 'cancelling') };
    if (!(await this.files.store.updateBatch(cancelling, [stored.status]))) return this.cancel(id, owner);
    return this.#view(cancelling);
  }
}

/** The key id a batch's lines are run and billed as: the virtual key's id, or `static` for a key from the config file. */
function keyIdOf(caller: unknown): string {
  const principal = caller as Principal | undefined;
  return principal?.kind === 'virtual' ? principal.state.key.id : 'static';
}
