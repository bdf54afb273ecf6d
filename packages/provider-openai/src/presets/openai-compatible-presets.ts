import type { AdapterOperation } from '@switchyard/core';
import { mistralModerationDialect } from './mistral-moderation.js';
import { mistralQuirks } from './mistral-quirks.js';
import type { OpenAICompatiblePreset } from './openai-compatible-preset.js';
import { xaiQuirks } from './xai-quirks.js';

const CHAT: AdapterOperation[] = ['chatCompletions', 'listModels'];

/**
 * The named presets of the OpenAI-compatible adapter, one entry per host (`adapter: <name>` in config). Operations
 * list only what the host documents under its OpenAI-compatible base URL (`completions`: the legacy `/completions`, served
 * by vLLM, Ollama, LM Studio, Together, Fireworks and OpenRouter; the others get legacy completions through chat). DeepSeek's and xAI's `reasoning_content`
 * (in messages and stream deltas) needs no quirk: the adapter forwards unknown fields both ways. Quirks: Mistral
 * ({@link mistralQuirks}; moderations through {@link mistralModerationDialect}), xAI ({@link xaiQuirks}), OpenRouter (`http_referer`/`x_title` settings).
 */
export const OPENAI_COMPATIBLE_PRESETS: readonly OpenAICompatiblePreset[] = [
  {
    name: 'groq',
    title: 'Groq',
    baseURL: 'https://api.groq.com/openai/v1',
    apiKeyEnv: 'GROQ_API_KEY',
    baseURLEnv: 'GROQ_BASE_URL',
    operations: [...CHAT, 'transcriptions', 'translations', 'speech'],
    docs: 'https://console.groq.com/docs/openai',
  },
  {
    name: 'mistral',
    title: 'Mistral',
    baseURL: 'https://api.mistral.ai/v1',
    apiKeyEnv: 'MISTRAL_API_KEY',
    baseURLEnv: 'MISTRAL_BASE_URL',
    operations: [...CHAT, 'embeddings', 'transcriptions', 'moderations'],
    quirks: mistralQuirks,
    moderation: mistralModerationDialect,
    docs: 'https://docs.mistral.ai/api/',
  },
  {
    name: 'deepseek',
    title: 'DeepSeek',
    baseURL: 'https://api.deepseek.com/v1',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    baseURLEnv: 'DEEPSEEK_BASE_URL',
    operations: CHAT,
    docs: 'https://api-docs.deepseek.com/',
  },
  {
    name: 'xai',
    title: 'xAI',
    baseURL: 'https://api.x.ai/v1',
    apiKeyEnv: 'XAI_API_KEY',
    baseURLEnv: 'XAI_BASE_URL',
    operations: [...CHAT, 'imageGenerations'],
    quirks: xaiQuirks,
    docs: 'https://docs.x.ai/docs/api-reference',
  },
  {
    name: 'together',
    title: 'Together AI',
    baseURL: 'https://api.together.xyz/v1',
    apiKeyEnv: 'TOGETHER_API_KEY',
    baseURLEnv: 'TOGETHER_BASE_URL',
    operations: [...CHAT, 'completions', 'embeddings', 'imageGenerations'],
    docs: 'https://docs.together.ai/docs/openai-api-compatibility',
  },
  {
    name: 'fireworks',
    title: 'Fireworks AI',
    baseURL: 'https://api.fireworks.ai/inference/v1',
    apiKeyEnv: 'FIREWORKS_API_KEY',
    baseURLEnv: 'FIREWORKS_BASE_URL',
    operations: [...CHAT, 'completions', 'embeddings'],
    docs: 'https://docs.fireworks.ai/tools-sdks/openai-compatibility',
  },
  {
    name: 'openrouter',
    title: 'OpenRouter',
    baseURL: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    baseURLEnv: 'OPENROUTER_BASE_URL',
    operations: [...CHAT, 'completions'],
    headerSettings: { http_referer: 'HTTP-Referer', x_title: 'X-Title' },
    docs: 'https://openrouter.ai/docs/api-reference/overview',
  },
  {
    name: 'perplexity',
    title: 'Perplexity',
    baseURL: 'https://api.perplexity.ai',
    apiKeyEnv: 'PERPLEXITY_API_KEY',
    baseURLEnv: 'PERPLEXITY_BASE_URL',
    operations: ['chatCompletions'],
    docs: 'https://docs.perplexity.ai/api-reference/chat-completions-post',
  },
  {
    name: 'cerebras',
    title: 'Cerebras',
    baseURL: 'https://api.cerebras.ai/v1',
    apiKeyEnv: 'CEREBRAS_API_KEY',
    baseURLEnv: 'CEREBRAS_BASE_URL',
    operations: CHAT,
    docs: 'https://inference-docs.cerebras.ai/resources/openai',
  },
  {
    name: 'ollama',
    title: 'Ollama (local)',
    baseURL: 'http://localhost:11434/v1',
    baseURLEnv: 'OLLAMA_BASE_URL',
    operations: [...CHAT, 'completions', 'embeddings'],
    docs: 'https://github.com/ollama/ollama/blob/main/docs/openai.md',
  },
  {
    name: 'vllm',
    title: 'vLLM (self-hosted)',
    baseURL: 'http://localhost:8000/v1',
    baseURLEnv: 'VLLM_BASE_URL',
    operations: [...CHAT, 'completions', 'embeddings', 'transcriptions'],
    docs: 'https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html',
  },
  {
    name: 'lmstudio',
    title: 'LM Studio (local)',
    baseURL: 'http://localhost:1234/v1',
    baseURLEnv: 'LMSTUDIO_BASE_URL',
    operations: [...CHAT, 'completions', 'embeddings'],
    docs: 'https://lmstudio.ai/docs/app/api/endpoints/openai',
  },
];
