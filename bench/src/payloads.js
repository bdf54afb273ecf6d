// The requests and recorded-shape replies of the benchmark scenarios.
import { testkitFixtures } from '@switchyard/testkit';
import { BENCH_MASTER_KEY } from './bench-keys.js';

const fixtures = testkitFixtures();
export const completion = fixtures.json('openai/openai-text.json');
const [firstChunk] = fixtures.chunkLines('openai/openai-text.chunks.txt').map((line) => JSON.parse(line));

/** `count` SSE chunks shaped like the recorded OpenAI stream, then a usage chunk and [DONE]. */
export function streamFramesOf(count) {
  return [
    ...Array.from(
      { length: count },
      (_, i) =>
        `data: ${JSON.stringify({ ...firstChunk, choices: [{ index: 0, delta: { content: `token${i} ` }, logprobs: null, finish_reason: i === count - 1 ? 'stop' : null }] })}\n\n`,
    ),
    `data: ${JSON.stringify({ ...firstChunk, choices: [], usage: { prompt_tokens: 16, completion_tokens: count, total_tokens: 16 + count } })}\n\n`,
    'data: [DONE]\n\n',
  ];
}
/** 100 SSE chunks, then a usage chunk and [DONE]. */
export const streamFrames = streamFramesOf(100);

/** 16 embeddings of 1536 floats, as floats and as base64 (little-endian float32). */
const vectors = Array.from({ length: 16 }, (_, i) =>
  Array.from({ length: 1536 }, (_, j) => Math.fround(Math.sin(i * 1536 + j) / 10)),
);
export const embeddingsFloat = {
  object: 'list',
  model: 'text-embedding-3-small',
  data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
  usage: { prompt_tokens: 64, total_tokens: 64 },
};
export const embeddingsBase64 = {
  ...embeddingsFloat,
  data: vectors.map((v, index) => ({
    object: 'embedding',
    index,
    embedding: Buffer.from(Float32Array.from(v).buffer).toString('base64'),
  })),
};

export const models = {
  object: 'list',
  data: [{ id: 'gpt-4.1-nano', object: 'model', created: 1686935002, owned_by: 'openai' }],
};
export const transcription = fixtures.json('openai/spec-examples/createtranscription-default.json');

/** Request bodies. */
export const chatBody = JSON.stringify({
  model: 'bench',
  messages: [{ role: 'user', content: 'Invent a new holiday and describe its traditions.' }],
  temperature: 0.7,
});
export const streamBody = JSON.stringify({
  model: 'bench',
  stream: true,
  messages: [{ role: 'user', content: 'Invent a new holiday and describe its traditions.' }],
});
/**
 * A chat body whose user message tells the mock upstream how to answer (see upstream-process.js): `slow:N:MS` streams
 * N chunks MS apart, `fail` answers 400 (an upstream error the gateway does not retry). The gateway and the Express floor forward messages unchanged.
 */
export const chatBodyWith = (content, stream = true) =>
  JSON.stringify({ model: 'bench', ...(stream ? { stream: true } : {}), messages: [{ role: 'user', content }] });
/** A streamed chat request whose prompt is `bytes` long (the head-of-line row's large prompts). */
export const largeStreamBody = (bytes) => chatBodyWith('lorem ipsum '.repeat(Math.ceil(bytes / 12)).slice(0, bytes));
export const embeddingsBody = (format) =>
  JSON.stringify({
    model: 'embed',
    encoding_format: format,
    input: Array.from({ length: 16 }, (_, i) => `sentence number ${i} to embed`),
  });

/** A multipart body with a 1 MB file, and its content type. */
export function transcriptionUpload() {
  const boundary = '----switchyardbench';
  const file = Buffer.alloc(1024 * 1024, 7);
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
  );
  return {
    body: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

export { BENCH_KEY, BENCH_MASTER_KEY } from './bench-keys.js';

/** Creates a virtual key with `limits` through the admin API of the gateway at `origin`; resolves with its secret. */
export async function createBenchKey(origin, limits) {
  const res = await fetch(`${origin}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', ...limits }),
  });
  if (res.status !== 201) throw new Error(`bench: creating a virtual key answered ${res.status}: ${await res.text()}`);
  return (await res.json()).key;
}
