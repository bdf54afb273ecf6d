import type { MockReply, MockRoute, RecordedRequest } from '../mock-upstream/mock-reply.js';

/** One batch the mock holds: OpenAI's Batch object plus its input lines. */
export interface MockBatch {
  object: Record<string, unknown> & { id: string; status: string };
  lines: { custom_id: string; url: string; body: Record<string, unknown> }[];
  /** Retrieves seen since creation. */
  polls: number;
}

/** Options of {@link openAIBatchMock}. */
export interface OpenAIBatchMockOptions {
  /** Path prefix of the API: `/v1` (OpenAI, default) or `/openai` (Azure OpenAI). */
  prefix?: string;
  /** Retrieves of a batch before it completes (it is `in_progress` until then). Default 2. */
  pollsToComplete?: number;
}

/** The mock's batch API: its routes for `startMockUpstream` and what it holds. */
export interface OpenAIBatchMock {
  routes: Record<string, MockRoute>;
  /** Uploaded files' text by id (input files and the output files the mock wrote). */
  files: Map<string, string>;
  batches: Map<string, MockBatch>;
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}${(++counter).toString(36).padStart(6, '0')}mock`;
const nowS = () => Math.floor(Date.now() / 1000);
const error = (status: number, message: string): MockReply => ({
  status,
  json: { error: { message, type: 'invalid_request_error', param: null, code: null } },
});

/** The answer body of one input line: a chat completion, embeddings, a response or a text completion, with usage. */
function answer(line: MockBatch['lines'][number]): Record<string, unknown> {
  const model = String(line.body.model);
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  if (line.url.endsWith('/embeddings'))
    return {
      object: 'list',
      model,
      data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2, 0.3] }],
      usage: { prompt_tokens: 3, total_tokens: 3 },
    };
  if (line.url.endsWith('/responses'))
    return {
      id: `resp_${line.custom_id}`,
      object: 'response',
      model,
      status: 'completed',
      output: [],
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    };
  return {
    id: `chatcmpl-${line.custom_id}`,
    object: 'chat.completion',
    created: nowS(),
    model,
    choices: [
      { index: 0, message: { role: 'assistant', content: `batch answer to ${line.custom_id}` }, finish_reason: 'stop' },
    ],
    usage,
  };
}

/** Ends `batch` with `status`: every line answered (a line whose model is `fail` gets a 400 into the error file). */
function finish(mock: OpenAIBatchMock, batch: MockBatch, status: 'completed' | 'cancelled'): void {
  const output: string[] = [];
  const errors: string[] = [];
  const lines = status === 'completed' ? batch.lines : [];
  for (const [i, line] of lines.entries()) {
    const failed = line.body.model === 'fail';
    const response = failed
      ? {
          status_code: 400,
          request_id: `req_${i}`,
          body: { error: { message: 'bad model', type: 'invalid_request_error' } },
        }
      : { status_code: 200, request_id: `req_${i}`, body: answer(line) };
    const text = JSON.stringify({ id: `batch_req_${i}`, custom_id: line.custom_id, response, error: null });
    (failed ? errors : output).push(text);
  }
  const file = (text: string[]) => {
    if (text.length === 0) return null;
    const id = nextId('file-');
    mock.files.set(id, `${text.join('\n')}\n`);
    return id;
  };
  Object.assign(batch.object, {
    status,
    [`${status}_at`]: nowS(),
    output_file_id: file(output),
    error_file_id: file(errors),
    request_counts: { total: batch.lines.length, completed: output.length, failed: errors.length },
  });
}

/**
 * A scripted upstream of OpenAI's Batch API (Azure OpenAI's with `prefix: '/openai'`), for `startMockUpstream`:
 * `POST /files` (multipart, read with the WHATWG `Request`), `GET /files/{id}/content`, `POST /batches` (the input
 * file's lines checked: JSON with `custom_id`, `url`, `body`), `GET /batches/{id}` (in progress for
 * `pollsToComplete` retrieves, then completed with every line answered), `POST /batches/{id}/cancel` (cancelling,
 * then cancelled at the next retrieve with no line run).
 * @see https://platform.openai.com/docs/api-reference/batch
 */
export function openAIBatchMock(options: OpenAIBatchMockOptions = {}): OpenAIBatchMock {
  const prefix = options.prefix ?? '/v1';
  const pollsToComplete = options.pollsToComplete ?? 2;
  const mock: OpenAIBatchMock = { routes: {}, files: new Map(), batches: new Map() };
  const idOf = (request: RecordedRequest, index: number) => decodeURIComponent(request.path.split('/')[index] ?? '');
  const depth = prefix.split('/').length;
  mock.routes[`POST ${prefix}/files`] = async (request) => {
    const form = await new Request('http://mock/', {
      method: 'POST',
      headers: { 'content-type': String(request.headers['content-type']) },
      body: request.body,
    }).formData();
    const file = form.get('file');
    if (form.get('purpose') !== 'batch' || !(file instanceof Blob)) return error(400, 'purpose batch and a file');
    const id = nextId('file-');
    mock.files.set(id, await file.text());
    return {
      json: { id, object: 'file', bytes: file.size, created_at: nowS(), filename: 'input.jsonl', purpose: 'batch' },
    };
  };
  mock.routes[`GET ${prefix}/files/*/content`] = (request) => {
    const text = mock.files.get(idOf(request, depth + 1));
    return text === undefined
      ? error(404, 'No such File object')
      : { headers: { 'content-type': 'application/octet-stream' }, body: text };
  };
  mock.routes[`POST ${prefix}/batches`] = (request) => {
    const body = request.json as { input_file_id?: string; endpoint?: string; metadata?: unknown } | undefined;
    const text = mock.files.get(String(body?.input_file_id));
    if (text === undefined) return error(404, 'No such File object');
    const lines = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as MockBatch['lines'][number]);
    const id = nextId('batch_');
    const object = {
      id,
      object: 'batch',
      endpoint: body?.endpoint,
      input_file_id: body?.input_file_id,
      completion_window: '24h',
      status: 'validating',
      created_at: nowS(),
      request_counts: { total: lines.length, completed: 0, failed: 0 },
      metadata: body?.metadata ?? null,
    };
    mock.batches.set(id, { object, lines, polls: 0 });
    return { json: object };
  };
  mock.routes[`GET ${prefix}/batches/*`] = (request) => {
    const batch = mock.batches.get(idOf(request, depth + 1));
    if (!batch) return error(404, 'No such Batch object');
    batch.polls++;
    if (batch.object.status === 'cancelling') finish(mock, batch, 'cancelled');
    else if (batch.object.status === 'validating') batch.object.status = 'in_progress';
    else if (batch.object.status === 'in_progress' && batch.polls >= pollsToComplete) finish(mock, batch, 'completed');
    return { json: batch.object };
  };
  mock.routes[`POST ${prefix}/batches/*/cancel`] = (request) => {
    const batch = mock.batches.get(idOf(request, depth + 1));
    if (!batch) return error(404, 'No such Batch object');
    if (batch.object.status === 'in_progress' || batch.object.status === 'validating')
      batch.object.status = 'cancelling';
    return { json: batch.object };
  };
  return mock;
}
