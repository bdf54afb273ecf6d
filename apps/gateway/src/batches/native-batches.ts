import { createWriteStream, openAsBlob } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Accounts, BatchLineInput, BatchStatus, StoredBatch } from '@switchyard/accounts';
import {
  type AdapterCallContext,
  type Gateway,
  GatewayError,
  type NativeBatchApi,
  type RouteTarget,
  type UpstreamBatch,
} from '@switchyard/core';
import type { Files } from '../files/files.js';
import { FINAL_STATUSES, withStatus } from './batch-object.js';
import { emptyUsage } from './finalize-batch.js';
import { keyBudgetLeft } from './key-budget-left.js';
import { copyUpstreamOutput, type NativeBooking } from './native-batch-output.js';

/** Longest wait for one upstream call of a batch API (an upload included), ms. */
const UPSTREAM_CALL_MS = 10 * 60 * 1000;

/** Statuses of an upload that say the upstream has no batch API. */
const NO_BATCH_API = [404, 405, 501];

/** The deployment and batch API that run a batch upstream. */
export interface NativeTarget {
  target: RouteTarget;
  api: NativeBatchApi;
}

/** What {@link NativeBatches} needs. */
export interface NativeBatchesOptions {
  files: Files;
  gateway: Gateway;
  accounts?: Accounts;
  /** Config `batches.native`: false runs every batch in the gateway. */
  enabled: boolean;
  /** How often an upstream batch is asked how it stands, ms (config `batches.upstream_poll_ms`). */
  upstreamPollMs: number;
}

/** The entries of a Batch object's `errors` (`{object: 'list', data}` or null). */
function errorEntries(errors: unknown): unknown[] {
  const data = (errors as { data?: unknown } | null | undefined)?.data;
  return Array.isArray(data) ? data : [];
}

/** The context of one upstream call made for batch `id` (no client: aborted after {@link UPSTREAM_CALL_MS}). */
function callContext(provider: string, id: string): AdapterCallContext {
  return { signal: AbortSignal.timeout(UPSTREAM_CALL_MS), requestId: id, provider, warn: () => {} };
}

/**
 * Batches run by a provider's own Batch API (OpenAI, Azure OpenAI: `ProviderAdapter.batches`), at its batch price: the
 * gateway uploads the input file (each line's `model` replaced by the deployment's upstream id, `url` by the upstream's
 * endpoint name) and creates the batch upstream ({@link submit}), forwards a cancel ({@link cancel}), polls it every
 * `upstreamPollMs` while it runs, showing the upstream's `request_counts` ({@link advance}), and when it ends copies
 * its output and error files into files of the batch's key, booking every line in the ledger with the batch id.
 * @see https://platform.openai.com/docs/api-reference/batch
 */
export class NativeBatches {
  /** When each batch was last asked of its upstream, unix ms (this process). */
  readonly #polled = new Map<string, number>();

  constructor(readonly options: NativeBatchesOptions) {}

  /**
   * The deployment that runs a batch of `endpoint` upstream: every line names one `model` (as OpenAI's batches
   * require), whose first deployment's adapter has a batch API serving `endpoint`; else undefined (the gateway runs it).
   */
  targetOf(endpoint: string, lines: readonly { model: string }[]): NativeTarget | undefined {
    const model = lines[0]?.model;
    if (!this.options.enabled || model === undefined || lines.some((line) => line.model !== model)) return undefined;
    let target: RouteTarget | undefined;
    try {
      target = this.options.gateway.router.plan(model).models[0]?.targets[0];
    } catch {
      return undefined;
    }
    const api = target?.adapter.batches;
    if (!target || !api?.endpoints.includes(endpoint)) return undefined;
    return { target, api };
  }

  /**
   * Uploads the lines (rewritten for the upstream, through a temporary file streamed to it) and creates the batch
   * upstream; resolves with `stored` run by the provider (`runner` its name, `upstream_id`), `in_progress`, or
   * undefined when the upload is answered 404, 405 or 501 (an OpenAI-compatible server without a batch API: the
   * gateway runs the batch). Throws the upstream's other errors (the batch is then not created).
   */
  async submit(
    stored: StoredBatch,
    lines: readonly BatchLineInput[],
    native: NativeTarget,
  ): Promise<StoredBatch | undefined> {
    const { target, api } = native;
    const url = api.endpointPath(String(stored.batch.endpoint));
    const path = join(tmpdir(), `switchyard-${stored.id}.jsonl`);
    async function* rewritten() {
      for (const line of lines) {
        const body = { ...(JSON.parse(line.body) as Record<string, unknown>), model: target.upstreamModel };
        yield `${JSON.stringify({ custom_id: line.custom_id, method: 'POST', url, body })}\n`;
      }
    }
    let upstream: UpstreamBatch;
    try {
      await pipeline(Readable.from(rewritten()), createWriteStream(path));
      const context = callContext(target.provider, stored.id);
      const file = await api
        .uploadFile({ filename: `${stored.id}.jsonl`, data: await openAsBlob(path) }, context)
        .catch((error: unknown) => {
          if (GatewayError.isInstance(error) && NO_BATCH_API.includes(error.status)) return undefined;
          throw error;
        });
      if (!file) return undefined;
      upstream = await api.createBatch(
        {
          input_file_id: file.id,
          endpoint: url,
          completion_window: String(stored.batch.completion_window),
          metadata: (stored.batch.metadata as Record<string, string> | null) ?? null,
        },
        context,
      );
    } finally {
      await rm(path, { force: true });
    }
    return {
      ...stored,
      runner: target.provider,
      upstream_id: upstream.id,
      status: 'in_progress',
      batch: withStatus(stored.batch, 'in_progress'),
    };
  }

  /** Forwards a cancel of `stored` to its upstream. Throws the upstream's error. */
  async cancel(stored: StoredBatch): Promise<void> {
    const native = this.#nativeOf(stored);
    if (native && stored.upstream_id)
      await native.api.cancelBatch(stored.upstream_id, callContext(native.target.provider, stored.id));
  }

  /** The deployment of a stored upstream batch (its model's first deployment on the batch's provider). */
  #nativeOf(stored: StoredBatch): NativeTarget | undefined {
    const native = this.targetOf(String(stored.batch.endpoint), [{ model: String(stored.batch.model) }]);
    return native?.target.provider === stored.runner ? native : undefined;
  }

  /**
   * Asks the upstream how batch `stored` stands (at most every `upstreamPollMs`): while it runs, its `request_counts`
   * are stored; once it ends, the one process that moves it to `finalizing` copies its files and ends it with the
   * upstream's status, counts and errors.
   */
  async advance(stored: StoredBatch): Promise<void> {
    const now = Date.now();
    if (now - (this.#polled.get(stored.id) ?? 0) < this.options.upstreamPollMs) return;
    this.#polled.set(stored.id, now);
    const native = this.#nativeOf(stored);
    if (!native || !stored.upstream_id) throw new Error(`batch ${stored.id}: its deployment no longer has a batch API`);
    const upstream = await native.api.retrieveBatch(stored.upstream_id, callContext(native.target.provider, stored.id));
    const { store } = this.options.files;
    if (!FINAL_STATUSES.includes(upstream.status as BatchStatus)) {
      if (stored.status === 'in_progress' && upstream.status !== 'cancelling' && (await this.#budgetSpent(stored))) {
        await this.#cancelOverBudget(stored, native);
        return;
      }
      const counts = upstream.request_counts;
      if (counts) {
        const request_counts = { total: counts.total, completed: counts.completed, failed: counts.failed };
        await store.updateBatch({ ...stored, batch: { ...stored.batch, request_counts } }, [stored.status]);
      }
      return;
    }
    this.#polled.delete(stored.id);
    await this.#finish(stored, upstream, native);
  }

  /** True when the ledger shows batch `stored`'s key has spent its budget (nothing left in the current window). */
  async #budgetSpent(stored: StoredBatch): Promise<boolean> {
    const { accounts } = this.options;
    if (!accounts) return false;
    const principal = await accounts.principalById(stored.key_id).catch(() => undefined);
    const budget = await keyBudgetLeft(accounts, principal);
    return budget !== undefined && budget.left <= 0;
  }

  /**
   * Cancels upstream batch `stored` because its key's budget is spent: the batch moves to `cancelling` with an
   * `insufficient_quota` entry in `errors`; it ends `cancelled` (lines the provider finished still booked) when the
   * upstream says so.
   */
  async #cancelOverBudget(stored: StoredBatch, native: NativeTarget): Promise<void> {
    await native.api.cancelBatch(String(stored.upstream_id), callContext(native.target.provider, stored.id));
    const error = {
      code: 'insufficient_quota',
      message: "The key's budget was spent while the batch ran; the gateway cancelled it upstream.",
      param: null,
      line: null,
    };
    const errors = { object: 'list', data: [...errorEntries(stored.batch.errors), error] };
    await this.options.files.store.updateBatch(
      { ...stored, status: 'cancelling', batch: withStatus(stored.batch, 'cancelling', { errors }) },
      [stored.status],
    );
  }

  async #finish(stored: StoredBatch, upstream: UpstreamBatch, native: NativeTarget): Promise<void> {
    const { files, accounts } = this.options;
    const finalizing: StoredBatch = { ...stored, status: 'finalizing', batch: withStatus(stored.batch, 'finalizing') };
    if (!(await files.store.updateBatch(finalizing, [stored.status]))) return;
    const booking: NativeBooking = {
      batch: stored,
      model: String(stored.batch.model),
      target: native.target,
      accounts,
      principal: accounts ? await accounts.principalById(stored.key_id).catch(() => undefined) : undefined,
    };
    const usage = emptyUsage();
    const copy = async (id: string | null | undefined, kind: 'output' | 'error') => {
      if (!id) return { id: null, lines: 0 };
      const bytes = await native.api.fileContent(id, callContext(native.target.provider, stored.id));
      return copyUpstreamOutput(files, booking, bytes, usage, kind);
    };
    const output = await copy(upstream.output_file_id, 'output');
    const errors = await copy(upstream.error_file_id, 'error');
    const counts = upstream.request_counts ?? {
      total: output.lines + errors.lines,
      completed: output.lines,
      failed: errors.lines,
    };
    const status = upstream.status as BatchStatus;
    const done: StoredBatch = {
      ...finalizing,
      status,
      batch: withStatus(finalizing.batch, status, {
        output_file_id: output.id,
        error_file_id: errors.id,
        request_counts: { total: counts.total, completed: counts.completed, failed: counts.failed },
        usage,
        ...(upstream.errors?.data?.length && {
          errors: { object: 'list', data: [...errorEntries(finalizing.batch.errors), ...upstream.errors.data] },
        }),
      }),
    };
    await files.store.updateBatch(done, ['finalizing']);
  }
}
