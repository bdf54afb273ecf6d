// The mock upstream, in its own process so that it does not share the gateway's event loop.
import { startMockUpstream } from '@switchyard/testkit';
import { serveChild } from './child.js';
import {
  completion,
  embeddingsBase64,
  embeddingsFloat,
  models,
  streamFrames,
  streamFramesOf,
  transcription,
} from './payloads.js';

const completionText = JSON.stringify(completion);
const slowFrames = new Map();
/** `slow:N:MS`: N chunks, MS apart (the last carries the usage chunk and [DONE]). */
function slowStream(count, delayMs) {
  if (!slowFrames.has(count)) {
    const frames = streamFramesOf(count);
    slowFrames.set(count, [...frames.slice(0, count - 1), frames.slice(count - 1).join('')]);
  }
  return { chunks: slowFrames.get(count), chunkDelayMs: delayMs };
}
const upstream = await startMockUpstream({
  record: false,
  routes: {
    'POST /v1/chat/completions': (request) => {
      const body = request.json ?? {};
      if (String(body.model).endsWith('hold'))
        return { chunks: [streamFrames[0], streamFrames[1]], chunkDelayMs: 3_600_000 };
      const content = body.messages?.[0]?.content;
      if (typeof content === 'string' && content.startsWith('bench:')) {
        const [, kind, count, delay] = content.split(':');
        if (kind === 'slow') return slowStream(Number(count), Number(delay));
        if (kind === 'fail')
          return {
            status: 400,
            json: { error: { message: 'bench refusal', type: 'invalid_request_error', code: null } },
          };
      }
      if (body.stream) return { chunks: [streamFrames.join('')] };
      return { headers: { 'content-type': 'application/json' }, body: completionText };
    },
    'POST /v1/embeddings': (request) => ({
      json: request.json?.encoding_format === 'base64' ? embeddingsBase64 : embeddingsFloat,
    }),
    'GET /v1/models': { json: models },
    'POST /v1/audio/transcriptions': { json: transcription },
  },
});
serveChild({ url: upstream.url });
