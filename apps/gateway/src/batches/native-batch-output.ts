import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import type { Accounts, Admission, Principal, StoredBatch } from '@switchyard/accounts';
import { computeCostUsd, NATIVE_BATCH_DISCOUNT, targetPrice } from '@switchyard/accounts';
import type { RouteTarget } from '@switchyard/core';
import { z } from 'zod';
import type { Files } from '../files/files.js';
import { BATCH_ENDPOINTS, type BatchEndpoint } from './batch-endpoints.js';
import type { BatchUsage } from './finalize-batch.js';

const tokens = z.number().int().nonnegative().nullish();

/** One line of an upstream output or error file, as read. @see https://platform.openai.com/docs/api-reference/batch/request-output */
const outputLineSchema = z.looseObject({
  custom_id: z.string().max(512),
  response: z
    .looseObject({
      status_code: z.number().int(),
      body: z.unknown(),
    })
    .nullish(),
});

/** The usage of an answer body: chat (`prompt_tokens`...) or Responses (`input_tokens`...) names. */
const usageSchema = z.looseObject({
  usage: z
    .looseObject({
      prompt_tokens: tokens,
      completion_tokens: tokens,
      input_tokens: tokens,
      output_tokens: tokens,
      prompt_tokens_details: z.looseObject({ cached_tokens: tokens }).nullish(),
      input_tokens_details: z.looseObject({ cached_tokens: tokens }).nullish(),
      completion_tokens_details: z.looseObject({ reasoning_tokens: tokens }).nullish(),
      output_tokens_details: z.looseObject({ reasoning_tokens: tokens }).nullish(),
    })
    .nullish(),
});

/** Where an upstream batch's lines are booked: the batch, the deployment it ran on, and who pays. */
export interface NativeBooking {
  batch: StoredBatch;
  /** The gateway model id of every line. */
  model: string;
  target: RouteTarget;
  accounts?: Accounts;
  /** The key's principal (undefined without accounts). */
  principal?: Principal;
}

/** The token counts of an answer body (zero when it has no usage). */
function usageOf(body: unknown) {
  const usage = usageSchema.safeParse(body).data?.usage;
  return {
    prompt: usage?.prompt_tokens ?? usage?.input_tokens ?? 0,
    completion: usage?.completion_tokens ?? usage?.output_tokens ?? 0,
    cached: usage?.prompt_tokens_details?.cached_tokens ?? usage?.input_tokens_details?.cached_tokens ?? 0,
    reasoning:
      usage?.completion_tokens_details?.reasoning_tokens ?? usage?.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

/**
 * Books one answered line of an upstream batch in the ledger (and against the key's budget): its tokens at the
 * deployment's price (config, else catalogue) times `price.batch_discount` (default {@link NATIVE_BATCH_DISCOUNT}),
 * with the batch id; a line without usage (an error answer) is booked with no tokens at cost 0. Resolves with the
 * line's tokens for the batch's `usage`.
 */
async function bookLine(booking: NativeBooking, requestId: string, status: number, body: unknown) {
  const used = usageOf(body);
  const { accounts, principal, target, batch } = booking;
  if (!accounts || !principal) return used;
  const { price, source } = targetPrice(target, used.prompt);
  const discount = price?.batch_discount ?? NATIVE_BATCH_DISCOUNT;
  const details = {
    prompt_tokens_details: { cached_tokens: used.cached },
    completion_tokens_details: { reasoning_tokens: used.reasoning },
  };
  const cost = computeCostUsd(price, used.prompt, used.completion, details) * discount;
  const key = principal.kind === 'virtual' ? principal.state.key : undefined;
  const admission: Admission = {
    reservedTokens: 0,
    reservedUsd: 0,
    headers: {},
    ...(key?.budget_usd != null &&
      principal.kind === 'virtual' && {
        budgetWindow: principal.state.budgetWindow(Date.now(), accounts.budgetTimeZone).id,
      }),
  };
  await accounts.settle(principal, admission, {
    request_id: requestId,
    model: booking.model,
    provider: target.provider,
    upstream_model: target.upstreamModel,
    prompt_tokens: used.prompt,
    completion_tokens: used.completion,
    cost_usd: cost,
    price_source: source,
    latency_ms: 0,
    ttfb_ms: null,
    status,
    stream: false,
    created_at: Date.now(),
    operation: BATCH_ENDPOINTS[batch.batch.endpoint as BatchEndpoint] ?? null,
    batch_id: batch.id,
  });
  return used;
}

/**
 * Copies an upstream output or error file (`bytes`, JSONL streamed as it arrives) into a `batch_output` file of the
 * batch's owner, line by line: each line read through a zod schema, its answer's `model` named as the client named it,
 * and booked (see {@link bookLine}); lines that are not JSON are kept as they came and not booked. Resolves with the
 * new file id (null when the file has no line), its line count and the summed `usage`.
 */
export async function copyUpstreamOutput(
  files: Files,
  booking: NativeBooking,
  bytes: AsyncIterable<Uint8Array>,
  usage: BatchUsage,
  kind: 'output' | 'error',
): Promise<{ id: string | null; lines: number }> {
  const id = files.newId();
  let lines = 0;
  async function* copied() {
    const input = createInterface({ input: Readable.from(bytes), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const text of input) {
      if (text.trim() === '') continue;
      lines++;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        yield `${text}\n`;
        continue;
      }
      const line = outputLineSchema.safeParse(json);
      const response = line.data?.response;
      if (!line.success || !response) {
        yield `${text}\n`;
        continue;
      }
      const body = response.body;
      if (body && typeof body === 'object' && 'model' in body) (body as Record<string, unknown>).model = booking.model;
      const requestId = `batch_req_${booking.batch.id.slice(6)}_${kind}_${lines}`;
      const used = await bookLine(booking, requestId, response.status_code, body);
      if (response.status_code === 200) addUsage(usage, used);
      yield `${JSON.stringify(json)}\n`;
    }
  }
  const bytesWritten = await files.storage.write(id, copied());
  if (lines === 0) {
    await files.storage.remove(id);
    return { id: null, lines };
  }
  await files.store.insertFile({
    id,
    owner: booking.batch.owner,
    bytes: bytesWritten,
    created_at: Math.floor(Date.now() / 1000),
    expires_at: null,
    filename: `${booking.batch.id}_${kind}.jsonl`,
    purpose: 'batch_output',
  });
  return { id, lines };
}

function addUsage(total: BatchUsage, used: ReturnType<typeof usageOf>): void {
  total.input_tokens += used.prompt;
  total.output_tokens += used.completion;
  total.total_tokens += used.prompt + used.completion;
  total.input_tokens_details.cached_tokens += used.cached;
  total.output_tokens_details.reasoning_tokens += used.reasoning;
}
