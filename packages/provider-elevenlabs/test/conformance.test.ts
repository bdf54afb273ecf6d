import { makeWav } from '@switchyard/testkit';
import { describeAdapterConformance } from '@switchyard/testkit/conformance';
import { createElevenLabs } from '../src/index.js';

const RACHEL = '21m00Tcm4TlvDq8ikWAM';
const audio = makeWav({ durationMs: 120 });

describeAdapterConformance({
  name: 'elevenlabs',
  createAdapter: (baseURL, apiKey) => createElevenLabs({ apiKey, baseURL, voices: { alloy: RACHEL } }),
  model: 'eleven_multilingual_v2',
  speech: {
    route: `POST /v1/text-to-speech/${RACHEL}/stream`,
    reply: { headers: { 'content-type': 'audio/mpeg' }, chunks: [audio.subarray(0, 500), audio.subarray(500)] },
    voice: 'alloy',
    expect: { contentType: 'audio/mpeg', bytes: audio },
  },
  operationError: {
    route: `POST /v1/text-to-speech/${RACHEL}/stream`,
    reply: { status: 401, json: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } } },
    expect: { status: 401, message: /Invalid API key/ },
  },
  unsupported: [
    'chatCompletions',
    'embeddings',
    'transcriptions',
    'imageGenerations',
    'listModels',
    'translations',
    'moderations',
    'completions',
    'imageEdits',
    'imageVariations',
  ],
});
