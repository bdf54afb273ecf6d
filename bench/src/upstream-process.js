// The mock upstream, in its own process so that it does not share the gateway's event loop.
import { startMockUpstream } from '@switchyard/testkit';
import { serveChild } from './child.js';
import { completion, embeddingsBase64, embeddingsFloat, models, streamFrames, transcription } from './payloads.js';

const completionText = JSON.stringify(completion);
const upstream = await startMockUpstream({
  record: false,
  routes: {
    'POST /v1/chat/completions': (request) => {
      const body = request.json ?? {};
      if (String(body.model).endsWith('hold'))
        return { chunks: [streamFrames[0], streamFrames[1]], chunkDelayMs: 3_600_000 };
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
