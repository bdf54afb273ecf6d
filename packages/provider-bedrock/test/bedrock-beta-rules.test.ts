import { describe, expect, it } from 'vitest';
import { BEDROCK_BETA_RULES, toBedrockInvokeBody } from '../src/bedrock-anthropic-messages.js';

describe('Anthropic betas on Claude on Bedrock (BEDROCK_BETA_RULES)', () => {
  it("leaves out Claude-API-only betas, renames tool search, passes AWS's documented and unknown betas in order", () => {
    const header = [
      'claude-code-20250219',
      'interleaved-thinking-2025-05-14',
      'files-api-2025-04-14',
      'advanced-tool-use-2025-11-20',
      'web-search-2025-03-05',
      'context-management-2025-06-27',
      'prompt-caching-scope-2026-01-05',
      'effort-2025-11-24',
      'brand-new-beta-2027-01-01',
    ].join(',');
    const body = toBedrockInvokeBody(
      { model: 'anthropic.claude-sonnet-4-5', max_tokens: 10, messages: [] },
      { 'anthropic-beta': header },
    );
    expect(body.anthropic_beta).toEqual([
      'claude-code-20250219',
      'interleaved-thinking-2025-05-14',
      'tool-search-tool-2025-10-19',
      'context-management-2025-06-27',
      'effort-2025-11-24',
      'brand-new-beta-2027-01-01',
    ]);
  });

  it('is a deny-list: nothing AWS documents for InvokeModel is rejected', () => {
    for (const documented of [
      'computer-use-2025-01-24',
      'token-efficient-tools-2025-02-19',
      'interleaved-thinking-2025-05-14',
      'output-128k-2025-02-19',
      'context-1m-2025-08-07',
      'tool-search-tool-2025-10-19',
    ]) {
      expect(BEDROCK_BETA_RULES.rejected).not.toContain(documented);
    }
  });
});
