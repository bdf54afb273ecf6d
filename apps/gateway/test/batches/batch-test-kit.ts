import type OpenAI from 'openai';
import { toFile } from 'openai';
import { expect } from 'vitest';

/** JSONL of `count` chat lines for `model`, each with `custom_id` `req-<i>` and `tag` in its message (to count upstream calls). */
export function chatLines(
  count: number,
  model: (i: number) => string,
  tag: string,
  extra: Record<string, unknown> = {},
): string {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      custom_id: `req-${i}`,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: model(i), messages: [{ role: 'user', content: `${tag} line ${i}` }], ...extra },
    }),
  ).join('\n');
}

/** Uploads `jsonl` as a batch input file and creates a `/v1/chat/completions` batch of it. */
export async function createChatBatch(
  client: OpenAI,
  jsonl: string,
  metadata?: Record<string, string>,
): Promise<OpenAI.Batches.Batch> {
  const file = await client.files.create({ file: await toFile(Buffer.from(jsonl), 'input.jsonl'), purpose: 'batch' });
  return client.batches.create({
    input_file_id: file.id,
    endpoint: '/v1/chat/completions',
    completion_window: '24h',
    ...(metadata && { metadata }),
  });
}

/** Polls the batch until its status is one of `statuses` (or 30 s pass); resolves with it. */
export async function waitForStatus(
  client: OpenAI,
  id: string,
  statuses: readonly string[],
  timeout = 30_000,
): Promise<OpenAI.Batches.Batch> {
  await expect
    .poll(async () => (await client.batches.retrieve(id)).status, { timeout, interval: 50 })
    .toSatisfy((s: string) => statuses.includes(s));
  return client.batches.retrieve(id);
}

/** One line of a batch's output or error file. */
export interface OutputLine {
  id: string;
  custom_id: string;
  response: {
    status_code: number;
    request_id: string;
    body: { object?: string; model?: string; error?: Record<string, unknown> };
  } | null;
  error: { code: string; message: string } | null;
}

/** The JSONL lines of file `id`, parsed. */
export async function fileLines(client: OpenAI, id: string | null | undefined): Promise<OutputLine[]> {
  if (!id) return [];
  const text = await (await client.files.content(id)).text();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as OutputLine);
}

/** A gate: requests wait on `wait()` until `open()` is called. */
export function gate(): { wait: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait: () => opened, open };
}
