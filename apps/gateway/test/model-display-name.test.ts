import { describe, expect, it } from 'vitest';
import { readableModelName } from '../src/http/routes/model-display-name.js';

describe('readableModelName', () => {
  it.each([
    ['claude-opus-5-5', 'Claude Opus 5.5'],
    ['claude-3-5-sonnet-20241022', 'Claude 3.5 Sonnet'],
    ['claude-sonnet-4-5@20250929', 'Claude Sonnet 4.5'],
    ['gpt-4o-mini', 'GPT-4o Mini'],
    ['gpt-5.5-claude', 'GPT-5.5 Claude'],
    ['gpt-4.1-nano-2025-04-14', 'GPT-4.1 Nano'],
    ['openai/VAR_chat_model_id', 'VAR Chat Model Id'],
    ['meta-llama/Llama-3.3-70B-Instruct', 'Llama 3.3 70B Instruct'],
    ['qwen3-coder', 'Qwen3 Coder'],
    ['---', '---'],
  ])('%s -> %s', (id, name) => {
    expect(readableModelName(id)).toBe(name);
  });
});
