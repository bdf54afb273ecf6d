import { createFixtureReader } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { createDeepgram } from '../src/index.js';

const fixtures = createFixtureReader(new URL('../fixtures/', import.meta.url));
const recorded = fixtures.json<{ results: { channels: { alternatives: { transcript: string }[] }[] } }>(
  'deepgram/deepgram-transcription.json',
);

describeAdapterConformance({
  name: 'deepgram',
  createAdapter: (baseURL, apiKey) => createDeepgram({ apiKey, baseURL }),
  model: 'nova-3',
  transcriptions: {
    route: 'POST /v1/listen',
    reply: { json: recorded },
    expect: { text: recorded.results.channels[0]!.alternatives[0]!.transcript },
  },
  operationError: {
    route: 'POST /v1/listen',
    reply: {
      status: 400,
      json: {
        err_code: 'Bad Request',
        err_msg: 'Bad Request: failed to process audio: corrupt or unsupported data',
        request_id: 'r',
      },
    },
    expect: { status: 400, message: /corrupt or unsupported data/ },
  },
  unsupported: [
    'chatCompletions',
    'embeddings',
    'speech',
    'imageGenerations',
    'listModels',
    'translations',
    'moderations',
    'completions',
    'imageEdits',
    'imageVariations',
  ],
});
