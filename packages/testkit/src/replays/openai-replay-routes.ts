import { makeWav } from '../audio/make-wav.js';
import { testkitFixtures } from '../fixtures/fixture-reader.js';
import type { MockReply, MockRoute, RecordedRequest } from '../mock-upstream/mock-reply.js';
import { sseFrames } from '../mock-upstream/sse-frames.js';

/** The multipart text field `name` of a recorded request, or undefined. */
export function multipartField(request: RecordedRequest, name: string): string | undefined {
  const match = new RegExp(`name="${name.replace(/[[\]]/g, '\\$&')}"\\r\\n\\r\\n([^\\r]*)\\r\\n`).exec(
    request.bodyText,
  );
  return match?.[1];
}

/**
 * Routes that make a mock upstream behave like api.openai.com (`/v1/...`) from recorded traffic in
 * `fixtures/openai/` (provenance in its README.md):
 * - chat: `openai-text.json`, or `openai-text.chunks.txt` as SSE when `stream: true`. With `n` > 1 the recorded
 *   choice is repeated at indexes 0..n-1 (no multi-choice recording exists).
 * - embeddings `openai-embedding.json`; transcriptions `spec-examples/createtranscription-default.json` (json),
 *   `openai-transcription.json` (verbose_json) or the recorded text `groq-transcription-text.json` (text, srt, vtt);
 *   translations `spec-examples/createtranslation-default.json` (json, verbose_json; OpenAI's documented example, no
 *   recording exists) or the same recorded text;
 *   images `openai-image.json` (variations too: no variation recording exists, and the answer has the same shape),
 *   image edits `openai-image-edit.json`, or with `stream=true` the events of
 *   `spec-examples/createimageedit-streaming.sse.txt` (OpenAI's documented example); moderations `spec-examples/createmoderation-image-and-text.json` (OpenAI's documented
 *   example);
 *   models `spec-examples/retrievemodel-default.json` as a one-model list.
 * - legacy completions (`POST /v1/completions`): `openai-completion-text.json`, or `openai-completion-text.chunks.txt`
 *   as SSE when `stream: true` (recorded with `include_usage`: every chunk has `usage: null`, the last none choices).
 * - speech: a synthetic 250 ms WAV tone (no audio recording exists), as `audio/wav`.
 * - responses (`POST /v1/responses`): built from the OpenAPI examples, not recordings -
 *   `spec-examples/createresponse-functions.json` when tools are offered, `createresponse-text.json` otherwise, or the
 *   events of `createresponse-streaming.chunks.txt` when `stream: true`. Each answer gets a distinct id (the example's
 *   id and a counter), as the real API gives.
 */
export function openaiReplayRoutes(): Record<string, MockRoute> {
  const fixtures = testkitFixtures();
  const completion = fixtures.json<{ choices: unknown[] }>('openai/openai-text.json');
  const streamFrames = sseFrames(fixtures.chunkLines('openai/openai-text.chunks.txt'));
  const textTranscription = fixtures.json<{ headers: Record<string, string>; body: string }>(
    'openai/groq-transcription-text.json',
  );
  const model = fixtures.json<{ id: string }>('openai/spec-examples/retrievemodel-default.json');
  const chat = (request: RecordedRequest): MockReply => {
    const body = (request.json ?? {}) as { stream?: boolean; n?: number };
    if (body.stream) return { chunks: streamFrames };
    const n = Math.max(1, body.n ?? 1);
    const choice = completion.choices[0] as Record<string, unknown>;
    return { json: { ...completion, choices: Array.from({ length: n }, (_, index) => ({ ...choice, index })) } };
  };
  const legacyStream = sseFrames(fixtures.chunkLines('openai/openai-completion-text.chunks.txt'));
  const legacy = (request: RecordedRequest): MockReply =>
    (request.json as { stream?: boolean } | undefined)?.stream
      ? { chunks: legacyStream }
      : { json: fixtures.json('openai/openai-completion-text.json') };
  const imageEditEvents = fixtures.text('openai/spec-examples/createimageedit-streaming.sse.txt');
  const imageEdit = (request: RecordedRequest): MockReply =>
    multipartField(request, 'stream') === 'true'
      ? { headers: { 'content-type': 'text/event-stream' }, body: imageEditEvents }
      : { json: fixtures.json('openai/openai-image-edit.json') };
  let responseCount = 0;
  const responses = (request: RecordedRequest): MockReply => {
    const body = (request.json ?? {}) as { stream?: boolean; tools?: unknown[] };
    const suffix = `_${++responseCount}`;
    if (body.stream) {
      const events = fixtures.chunkLines('openai/spec-examples/createresponse-streaming.chunks.txt');
      return {
        chunks: sseFrames(
          events.map((line) => line.replace(/"id":"(resp_[^"]+)"/g, `"id":"$1${suffix}"`)),
          'typed',
        ),
      };
    }
    const json = fixtures.json<{ id: string }>(
      `openai/spec-examples/createresponse-${body.tools?.length ? 'functions' : 'text'}.json`,
    );
    return { json: { ...json, id: json.id + suffix } };
  };
  return {
    'POST /v1/chat/completions': chat,
    'POST /v1/completions': legacy,
    'POST /v1/images/edits': imageEdit,
    'POST /v1/images/variations': { json: fixtures.json('openai/openai-image.json') },
    'POST /v1/responses': responses,
    'POST /v1/embeddings': { json: fixtures.json('openai/openai-embedding.json') },
    'POST /v1/audio/transcriptions': (request) => {
      const format = multipartField(request, 'response_format') ?? 'json';
      if (format === 'json') return { json: fixtures.json('openai/spec-examples/createtranscription-default.json') };
      if (format === 'verbose_json') return { json: fixtures.json('openai/openai-transcription.json') };
      return {
        headers: { 'content-type': textTranscription.headers['content-type'] ?? 'text/plain' },
        body: textTranscription.body,
      };
    },
    'POST /v1/audio/translations': (request) => {
      const format = multipartField(request, 'response_format') ?? 'json';
      if (format === 'json' || format === 'verbose_json')
        return { json: fixtures.json('openai/spec-examples/createtranslation-default.json') };
      return {
        headers: { 'content-type': textTranscription.headers['content-type'] ?? 'text/plain' },
        body: textTranscription.body,
      };
    },
    'POST /v1/audio/speech': { headers: { 'content-type': 'audio/wav' }, chunks: [makeWav({ durationMs: 250 })] },
    'POST /v1/images/generations': { json: fixtures.json('openai/openai-image.json') },
    'POST /v1/moderations': { json: fixtures.json('openai/spec-examples/createmoderation-image-and-text.json') },
    'GET /v1/models': { json: { object: 'list', data: [model] } },
  };
}
