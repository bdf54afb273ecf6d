import { sseFrames, testkitFixtures } from '@switchyard/testkit';
import { conformanceChatRequest, describeAdapterConformance } from '@switchyard/testkit/conformance';
import type { AdapterOperation } from '@switchyard/core';
import { expect } from 'vitest';
import { OPENAI_COMPATIBLE_PRESETS, switchyardProviders } from '../src/index.js';

const fixtures = testkitFixtures();
const ALL: AdapterOperation[] = [
  'chatCompletions',
  'completions',
  'embeddings',
  'transcriptions',
  'translations',
  'speech',
  'imageGenerations',
  'imageEdits',
  'imageVariations',
  'moderations',
  'listModels',
];
const legacy = fixtures.json<{
  choices: { text: string }[];
  usage: { prompt_tokens: number; completion_tokens: number };
}>('openai/openai-completion-text.json');
const legacyLines = fixtures.chunkLines('openai/openai-completion-text.chunks.txt');
const legacyStreamText = legacyLines
  .map((l) => (JSON.parse(l) as { choices: { text: string }[] }).choices[0]?.text ?? '')
  .join('');
const translation = fixtures.json<{ text: string }>('openai/spec-examples/createtranslation-default.json');

/**
 * The recording each preset is tested on: its own host's where one exists (fixtures/<host>/), else OpenAI's
 * (the wire format every other preset documents as compatible).
 */
const RECORDINGS: Record<string, { dir: string; prefix: string; model: string }> = {
  groq: { dir: 'groq', prefix: 'groq-text', model: 'gemma2-9b-it' },
  mistral: { dir: 'mistral', prefix: 'mistral-text', model: 'mistral-small-latest' },
  deepseek: { dir: 'deepseek', prefix: 'deepseek-reasoning', model: 'deepseek-reasoner' },
  xai: { dir: 'xai', prefix: 'xai-text', model: 'grok-3-mini' },
};

type Completion = {
  choices: { message: { content: string } }[];
  usage: { prompt_tokens: number; completion_tokens: number };
};

for (const preset of OPENAI_COMPATIBLE_PRESETS) {
  const recording = RECORDINGS[preset.name] ?? { dir: 'openai', prefix: 'openai-text', model: 'gpt-4.1-nano' };
  const completion = fixtures.json<Completion>(`${recording.dir}/${recording.prefix}.json`);
  const lines = fixtures.chunkLines(`${recording.dir}/${recording.prefix}.chunks.txt`);
  const streamText = lines
    .map(
      (l) => (JSON.parse(l) as { choices: { delta?: { content?: string | null } }[] }).choices[0]?.delta?.content ?? '',
    )
    .join('');
  const basePath = new URL(preset.baseURL).pathname.replace(/\/+$/, '');
  const factory = switchyardProviders[preset.name]!;

  describeAdapterConformance({
    name: `${preset.name} (preset, recording ${recording.dir}/${recording.prefix})`,
    createAdapter: (baseURL, apiKey) =>
      factory.create(factory.settingsSchema.parse({ api_key: apiKey, base_url: `${baseURL}${basePath}` })),
    model: recording.model,
    chat: {
      completion: {
        route: `POST ${basePath}/chat/completions`,
        reply: { json: completion },
        expect: { content: completion.choices[0]!.message.content, finish_reason: 'stop' },
      },
      stream: {
        route: `POST ${basePath}/chat/completions`,
        reply: { chunks: sseFrames(lines) },
        expect: { content: streamText, finish_reason: 'stop' },
      },
      error: {
        route: `POST ${basePath}/chat/completions`,
        reply: { status: 429, json: fixtures.json('openai/openai-error.1.json') },
        expect: { status: 429, message: /exceeded your current quota/ },
      },
      assertRequest(request) {
        expect(request.headers.authorization).toMatch(/^Bearer /);
        expect(request.json).toEqual(conformanceChatRequest(recording.model));
      },
      // The host's own recorded tool call where one exists (Mistral), else the OpenAI-compatible one recorded from xAI.
      toolCall: {
        route: `POST ${basePath}/chat/completions`,
        reply: {
          json: fixtures.json(
            preset.name === 'mistral' ? 'mistral/mistral-tool-call.json' : 'openai-compatible/xai-tool-call.json',
          ),
        },
        expect: { name: 'weather', arguments: { location: 'San Francisco' } },
      },
    },
    // OpenAI's documented answer (no recording of a translation exists), on the preset's own path.
    ...(preset.operations.includes('translations') && {
      translations: {
        route: `POST ${basePath}/audio/translations`,
        reply: { json: translation },
        expect: { text: translation.text },
      },
    }),
    // OpenAI's recorded legacy completion, on the preset's own path (the presets that serve /completions).
    ...(preset.operations.includes('completions') && {
      completions: {
        completion: {
          route: `POST ${basePath}/completions`,
          reply: { json: legacy },
          expect: { text: legacy.choices[0]!.text, finish_reason: 'length', usage: legacy.usage },
        },
        stream: {
          route: `POST ${basePath}/completions`,
          reply: { chunks: sseFrames(legacyLines) },
          expect: { text: legacyStreamText, finish_reason: 'length' },
        },
      },
    }),
    // Mistral's moderation answer (built from a documented answer, fixtures/mistral/README.md), mapped to OpenAI's shape.
    ...(preset.name === 'mistral' && {
      moderations: {
        route: `POST ${basePath}/moderations`,
        reply: { json: fixtures.json('mistral/mistral-moderation.json') },
        expect: { count: 1, flagged: [false] },
      },
    }),
    unsupported: ALL.filter((operation) => !preset.operations.includes(operation)),
  });
}
