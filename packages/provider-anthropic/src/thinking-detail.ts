import { ANTHROPIC_REASONING_FORMAT, type ReasoningDetail } from '@switchyard/core';

/**
 * A `thinking` or `redacted_thinking` block of an answer -> its `reasoning_details` entry (undefined for other blocks):
 * `{type:"reasoning.text", text: thinking, signature, format:"anthropic-claude-v1", index}` or
 * `{type:"reasoning.encrypted", data, format:"anthropic-claude-v1", index}`. Sent back on the assistant message, the
 * entry becomes the same block again (see `convertToAnthropicMessages`).
 * @see https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks
 */
export function thinkingDetail(
  block: { type: string; [key: string]: unknown },
  index: number,
): ReasoningDetail | undefined {
  if (block.type === 'thinking') {
    const signature = typeof block.signature === 'string' ? block.signature : null;
    return {
      type: 'reasoning.text',
      text: typeof block.thinking === 'string' ? block.thinking : '',
      signature,
      format: ANTHROPIC_REASONING_FORMAT,
      index,
    };
  }
  if (block.type === 'redacted_thinking' && typeof block.data === 'string')
    return { type: 'reasoning.encrypted', data: block.data, format: ANTHROPIC_REASONING_FORMAT, index };
  return undefined;
}
