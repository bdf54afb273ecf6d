import { GatewayError, type NativeBatchApi } from '@switchyard/core';
import { expect, it } from 'vitest';
import { type OpenAIBatchMock, openAIBatchMock } from '../batches/openai-batch-mock.js';
import type { RecordedRequest } from '../mock-upstream/mock-reply.js';
import type { AdapterConformanceOptions } from './adapter-conformance-options.js';
import type { OperationCaseContext } from './describe-operation-cases.js';

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error,
  );
}

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

/** The input file of the suite's batch: two chat lines of `model` (the second's model `fail`, answered 400). */
function inputLines(model: string, url: string): string {
  const line = (customId: string, lineModel: string) =>
    JSON.stringify({
      custom_id: customId,
      method: 'POST',
      url,
      body: { model: lineModel, messages: [{ role: 'user', content: `Say ${customId}.` }] },
    });
  return `${line('request-1', model)}\n${line('request-2', 'fail')}\n`;
}

/**
 * The conformance cases of an adapter's own Batch API (`ProviderAdapter.batches`), registered inside
 * describeAdapterConformance's block when the options give `nativeBatches`: each runs on the testkit's scripted OpenAI
 * Batch API ({@link openAIBatchMock}, served by the suite's mock upstream under `nativeBatches.prefix`). Checked: the
 * endpoints offered and their upstream names, an upload (multipart, `purpose=batch`, the JSONL byte for byte) and a
 * batch created from it, retrieves until it completes and the output and error files downloaded (OpenAI's JSONL
 * lines), a cancel (`cancelling`, then `cancelled` with no line run), error mapping (the upstream's status, OpenAI's
 * error shape, no key) and a 404 for an unknown batch, a reset connection (502), an abort (the upstream request is
 * closed). Every request carries the key in a header, never in the URL, and passes `nativeBatches.assertRequest`.
 */
export function describeNativeBatchCases(options: AdapterConformanceOptions, cases: OperationCaseContext): void {
  const native = options.nativeBatches;
  if (!native) return;
  const prefix = native.prefix;
  const api = (): NativeBatchApi => {
    const batches = cases.adapter().batches;
    if (!batches) throw new Error(`${options.name}: nativeBatches is given but the adapter has no batches`);
    return batches;
  };
  /** A fresh scripted batch API on the suite's mock upstream (routes replaced, requests cleared). */
  const serve = (): OpenAIBatchMock => {
    const mock = openAIBatchMock({ prefix, pollsToComplete: 2 });
    for (const [key, route] of Object.entries(mock.routes)) cases.upstream().route(key, route);
    return mock;
  };
  const batchRequests = (): RecordedRequest[] =>
    cases
      .upstream()
      .requests.filter((r) => r.path.startsWith(`${prefix}/files`) || r.path.startsWith(`${prefix}/batches`));
  const checkRequests = () => {
    const sent = batchRequests();
    expect(sent.length, 'the adapter called the batch API').toBeGreaterThan(0);
    for (const request of sent) {
      expect(Object.values(request.headers).flat().join('\n')).toContain(cases.apiKey);
      expect(JSON.stringify(request.query) + request.path).not.toContain(cases.apiKey);
      native.assertRequest?.(request);
    }
  };
  const endpoint = '/v1/chat/completions';
  const create = async () => {
    const upstreamEndpoint = api().endpointPath(endpoint);
    const jsonl = inputLines(options.model, upstreamEndpoint);
    const file = await api().uploadFile(
      { filename: 'batch-input.jsonl', data: new Blob([jsonl], { type: 'application/jsonl' }) },
      cases.context(),
    );
    const batch = await api().createBatch(
      {
        input_file_id: file.id,
        endpoint: upstreamEndpoint,
        completion_window: '24h',
        metadata: { run: 'conformance' },
      },
      cases.context(),
    );
    return { file, batch, jsonl };
  };

  it('native batches: offers chat batches and names the endpoint as the upstream does', () => {
    expect(api().endpoints).toContain('/v1/chat/completions');
    expect(api().endpointPath('/v1/chat/completions')).toBe(native.expect.chatEndpoint);
  });

  it('native batches: uploads the input file (purpose batch) and creates a batch of it', async () => {
    const mock = serve();
    const { file, batch, jsonl } = await create();
    expect(mock.files.get(file.id), 'the JSONL reached the upstream byte for byte').toBe(jsonl);
    expect(cases.upstream().requestsTo(`POST ${prefix}/files`)[0]!.bodyText).toMatch(/name="purpose"\r\n\r\nbatch\r\n/);
    expect(batch).toMatchObject({ status: 'validating', request_counts: { total: 2, completed: 0, failed: 0 } });
    expect(cases.upstream().requestsTo(`POST ${prefix}/batches`)[0]!.json).toEqual({
      input_file_id: file.id,
      endpoint: native.expect.chatEndpoint,
      completion_window: '24h',
      metadata: { run: 'conformance' },
    });
    checkRequests();
  });

  it('native batches: retrieves a batch until it completes and downloads its output and error files', async () => {
    serve();
    const { batch } = await create();
    const seen: string[] = [];
    let current = batch;
    while (current.status !== 'completed' && seen.length < 10) {
      current = await api().retrieveBatch(batch.id, cases.context());
      seen.push(current.status);
    }
    expect(seen).toEqual(['in_progress', 'completed']);
    expect(current.request_counts).toMatchObject({ total: 2, completed: 1, failed: 1 });
    const output = (await text(await api().fileContent(current.output_file_id!, cases.context())))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { custom_id: string; response: { status_code: number; body: unknown } });
    expect(output).toHaveLength(1);
    expect(output[0]).toMatchObject({ custom_id: 'request-1', response: { status_code: 200 } });
    expect(output[0]!.response.body).toMatchObject({ object: 'chat.completion', model: options.model });
    const errors = (await text(await api().fileContent(current.error_file_id!, cases.context()))).trim().split('\n');
    expect(errors.map((l) => JSON.parse(l) as { custom_id: string })).toMatchObject([{ custom_id: 'request-2' }]);
    checkRequests();
  });

  it('native batches: cancels a batch (cancelling, then cancelled with no line run)', async () => {
    serve();
    const { batch } = await create();
    const cancelling = await api().cancelBatch(batch.id, cases.context());
    expect(cancelling.status).toBe('cancelling');
    const cancelled = await api().retrieveBatch(batch.id, cases.context());
    expect(cancelled).toMatchObject({ status: 'cancelled', request_counts: { total: 2, completed: 0 } });
    expect(cancelled.output_file_id ?? null).toBeNull();
    expect(cases.upstream().requestsTo(`POST ${prefix}/batches/*/cancel`)).toHaveLength(1);
    checkRequests();
  });

  it('native batches: maps an upstream error to its status in OpenAI shape, without the key', async () => {
    serve();
    const { file } = await create();
    cases.upstream().route(`POST ${prefix}/batches`, native.error.reply);
    const error = await rejection(
      api().createBatch(
        { input_file_id: file.id, endpoint: api().endpointPath(endpoint), completion_window: '24h' },
        cases.context(),
      ),
    );
    expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
    expect((error as GatewayError).status).toBe(native.error.expect.status);
    const body = (error as GatewayError).toJSON();
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    if (native.error.expect.message) expect(body.error.message).toMatch(native.error.expect.message);
    expect(JSON.stringify(body) + (error as GatewayError).message).not.toContain(cases.apiKey);
    const missing = await rejection(api().retrieveBatch('batch_does_not_exist', cases.context()));
    expect(GatewayError.isInstance(missing) && (missing as GatewayError).status).toBe(404);
  });

  it('native batches: answers 502 when the upstream resets the connection', async () => {
    cases.upstream().route(`GET ${prefix}/batches/*`, { reset: true });
    const error = await rejection(api().retrieveBatch('batch_reset', cases.context()));
    expect(GatewayError.isInstance(error), `expected a GatewayError, got ${String(error)}`).toBe(true);
    expect((error as GatewayError).status).toBe(502);
  });

  it('native batches: stops at once and closes the upstream request when aborted', async () => {
    const route = `GET ${prefix}/batches/*`;
    cases.upstream().route(route, { hang: true });
    const controller = new AbortController();
    const pending = rejection(api().retrieveBatch('batch_hang', cases.context(controller.signal)));
    await expect.poll(() => cases.upstream().requestsTo(route).length).toBe(1);
    controller.abort(new Error('client gone'));
    await pending;
    await expect.poll(() => cases.upstream().requestsTo(route)[0]?.closedByClient, { timeout: 5000 }).toBe(true);
  });
}
